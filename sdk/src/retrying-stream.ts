import type { StreamEvent } from "./chat-model.js";
import { ProviderError } from "./errors.js";
import { abortableSleep, backoffDelay, type RetryPolicy } from "./retry-policy.js";

/**
 * One reply's events, retried like the HTTP status it stands for when a retryable error event
 * (overloaded, rate limited) comes before any content. Until content arrives, what the driver sends
 * (usage, notices) is held back, so a retry repeats nothing; once content was streamed, an error always
 * reaches the caller.
 *
 * An iterator rather than an async generator: once content flows, `next` is the driver's own `next`.
 * A generator layer cost a promise hop and its objects for every event of every reply (at 100 tool
 * calls in one reply, ~3 % of what a run allocates).
 */
export class RetryingStream implements AsyncIterableIterator<StreamEvent> {
  #events: AsyncIterator<StreamEvent> | undefined;
  #attempt = 0;
  /** Content has come, or the reply ended: from here on events pass straight through. */
  #streaming = false;
  #ended = false;
  /** The held events, handed out once content came (before it) or the reply ended without any. */
  #released: StreamEvent[] = [];

  /** `open` starts one attempt of the reply: the driver's stream, read for the first time when the caller first reads. */
  constructor(
    private readonly open: () => AsyncIterable<StreamEvent>,
    private readonly policy: RetryPolicy,
    private readonly signal: AbortSignal | undefined,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent>> {
    const released = this.#released.shift();
    if (released) return Promise.resolve({ done: false, value: released });
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    if (this.#streaming && this.#events) return this.#events.next();
    return this.#untilContent();
  }

  /** The caller stopped reading: the driver's stream is closed with it (its request too). */
  async return(): Promise<IteratorResult<StreamEvent>> {
    this.#released.length = 0;
    this.#ended = true;
    await this.#events?.return?.();
    return { done: true, value: undefined };
  }

  /** Reads until the first content event or the end, retrying what may be retried; then releases what it held. */
  async #untilContent(): Promise<IteratorResult<StreamEvent>> {
    const held: StreamEvent[] = [];
    for (;;) {
      let result: IteratorResult<StreamEvent>;
      try {
        this.#events ??= this.open()[Symbol.asyncIterator]();
        result = await this.#events.next();
      } catch (error) {
        const { policy, signal } = this;
        if (!(error instanceof ProviderError) || !error.retryable || this.#attempt >= policy.maxRetries || signal?.aborted) throw error;
        await abortableSleep(backoffDelay(this.#attempt++, policy), signal);
        this.#events = undefined;
        held.length = 0;
        continue;
      }
      if (result.done) this.#ended = true;
      else {
        held.push(result.value);
        if (!isContent(result.value)) continue;
        this.#streaming = true;
      }
      this.#released = held;
      return this.next();
    }
  }
}

function isContent(event: StreamEvent): boolean {
  return event.type === "text" || event.type === "reasoning" || event.type === "tool_call" || event.type === "done";
}
