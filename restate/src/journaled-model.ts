import { WeftError, type AssistantMessage, type ChatModel, type ChatRequest, type StreamEvent } from "@weft/sdk";
import type { JournalEvents } from "./journal-events.js";
import { runOptionsOf, terminalIfFinal, type ModelRetryPolicy } from "./model-retry.js";

/** What reaches the stream while the step runs; the rest of the reply comes from the step's result. */
const LIVE_EVENTS = new Set<StreamEvent["type"]>(["text", "reasoning", "output", "notice"]);

/**
 * The model with every call a journaled step: a call that completed is never made again, on this
 * worker or another after a crash; its reply comes from the journal. Text and reasoning deltas reach
 * the stream while the step runs, and only then: a replayed step (Restate replays the journal to
 * resume an invocation) yields its final message alone, so its deltas are never reported twice.
 */
export function journaledModel(steps: JournalEvents, model: ChatModel, retry?: ModelRetryPolicy): ChatModel {
  let calls = 0;
  const runOptions = runOptionsOf<AssistantMessage>(retry);
  const call = (request: ChatRequest, live: (event: StreamEvent) => void = () => {}): Promise<AssistantMessage> =>
    steps.step(
      `model call ${++calls}`,
      async () => {
        let reply: AssistantMessage | undefined;
        try {
          for await (const event of model.stream(request)) {
            if (event.type === "done") reply = event.message;
            else if (LIVE_EVENTS.has(event.type)) live(event);
          }
        } catch (error) {
          throw terminalIfFinal(error);
        }
        if (!reply) throw new WeftError("PROVIDER_ERROR", `${model.provider}/${model.model}: the stream ended without a final message`);
        return reply;
      },
      runOptions,
      true,
    );
  return new Proxy(model, {
    get(target, property) {
      if (property === "chat") return (request: ChatRequest) => call(request);
      if (property === "stream") {
        return async function* (request: ChatRequest): AsyncGenerator<StreamEvent> {
          const queued: StreamEvent[] = [];
          let wake = () => {};
          let changed = new Promise<void>((resolve) => (wake = resolve));
          let settled = false;
          const step = call(request, (event) => {
            queued.push(event);
            wake();
          });
          void step.then(
            () => undefined,
            () => undefined,
          ).finally(() => {
            settled = true;
            wake();
          });
          while (true) {
            const event = queued.shift();
            if (event) {
              yield event;
              continue;
            }
            if (settled) break;
            await changed;
            changed = new Promise<void>((resolve) => (wake = resolve));
          }
          yield { type: "done", message: await step };
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
