import { describe, expect, it } from "vitest";
import type { StreamEvent } from "./chat-model.js";
import { ProviderError } from "./errors.js";
import { DEFAULT_RETRY_POLICY } from "./retry-policy.js";
import { RetryingStream } from "./retrying-stream.js";

const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 1, maxRetries: 2 };
const overloaded = () => new ProviderError("overloaded", { provider: "test", retries: 0, retryable: true });
const usage: StreamEvent = { type: "usage", stats: { promptTokens: 1, outputTokens: 1, totalTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 } };
const text = (delta: string): StreamEvent => ({ type: "text", delta });

/** A driver whose attempts play `scripts` in turn (an Error is thrown where it stands); `log` says what each attempt did. */
function driver(scripts: (StreamEvent | Error)[][]) {
  const log: string[] = [];
  let attempt = 0;
  const open = () => {
    const script = scripts[attempt++] ?? [];
    const name = `attempt ${attempt}`;
    return (async function* () {
      log.push(`${name} opened`);
      try {
        for (const step of script) {
          if (step instanceof Error) throw step;
          yield step;
        }
      } finally {
        log.push(`${name} closed`);
      }
    })();
  };
  return { open, log };
}

async function drain(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe("a retrying stream", () => {
  it("holds back what comes before content, drops it with a retried attempt, and hands out the good attempt's in order", async () => {
    const { open, log } = driver([[usage, overloaded()], [usage, text("a"), text("b")]]);
    expect(await drain(new RetryingStream(open, policy, undefined))).toEqual([usage, text("a"), text("b")]);
    expect(log).toEqual(["attempt 1 opened", "attempt 1 closed", "attempt 2 opened", "attempt 2 closed"]);
  });

  it("hands out held events of a reply that ends without content", async () => {
    const { open } = driver([[usage]]);
    expect(await drain(new RetryingStream(open, policy, undefined))).toEqual([usage]);
  });

  it("passes an error after content to the caller, with no retry", async () => {
    const failure = overloaded();
    const { open, log } = driver([[text("a"), failure], [text("must not be asked")]]);
    const seen: StreamEvent[] = [];
    const reading = (async () => {
      for await (const event of new RetryingStream(open, policy, undefined)) seen.push(event);
    })();
    await expect(reading).rejects.toBe(failure);
    expect(seen).toEqual([text("a")]);
    expect(log).toEqual(["attempt 1 opened", "attempt 1 closed"]);
  });

  it("closes the driver's stream when the caller stops reading, and opens none for a caller that never reads", async () => {
    const { open, log } = driver([[text("a"), text("b"), text("c")]]);
    for await (const event of new RetryingStream(open, policy, undefined)) {
      expect(event).toEqual(text("a"));
      break;
    }
    expect(log).toEqual(["attempt 1 opened", "attempt 1 closed"]);
    const unread = driver([[text("a")]]);
    await new RetryingStream(unread.open, policy, undefined).return();
    expect(unread.log).toEqual([]);
  });
});
