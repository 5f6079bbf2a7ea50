import type { AssistantMessage } from "../message.js";
import type { StreamEvent } from "../chat-model.js";

/** Everything an async iterable yields, in order (a model's stream, an agent's events). */
export async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

/** The message of a stream's closing `done` event; throws when the stream did not end with one. */
export function doneMessage(events: StreamEvent[]): AssistantMessage {
  const last = events.at(-1);
  if (last?.type !== "done") throw new Error(`expected the stream to end with a done event, got ${last ? last.type : "no events"}`);
  return last.message;
}

/** The error a promise rejects with; throws when it resolves instead. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected the promise to reject, but it resolved");
    },
    (error: unknown) => error,
  );
}
