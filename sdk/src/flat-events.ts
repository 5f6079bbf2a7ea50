import type { StreamEvent } from "./chat-model.js";

/**
 * The events of a reply decoded in batches (what one wire chunk, or the reply's end, decodes to), one
 * by one. A driver's async generator that yielded each event paid for every one a promise, its
 * reaction and two microtask hops (`yield` in an async generator awaits its value); a reply of 100
 * tool calls, which all come at its end, paid that 100 times. Here a batch costs one step of the
 * generator and each of its events an already resolved promise.
 *
 * The batches are read one at a time, as the events are asked for: a batch is decoded only once the
 * events before it are out, so the events before a bad chunk reach the caller before its error.
 * Stopping early (break) closes the batches' generator, and with it the request.
 */
export function flatEvents(batches: AsyncIterable<readonly StreamEvent[]>): AsyncIterableIterator<StreamEvent> {
  return new FlatEvents(batches[Symbol.asyncIterator]());
}

class FlatEvents implements AsyncIterableIterator<StreamEvent> {
  readonly #batches: AsyncIterator<readonly StreamEvent[]>;
  #batch: readonly StreamEvent[] = [];
  /** The index in `#batch` of the next event to hand out. */
  #next = 0;

  constructor(batches: AsyncIterator<readonly StreamEvent[]>) {
    this.#batches = batches;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<StreamEvent>> {
    const event = this.#batch[this.#next];
    if (event === undefined) return this.#nextBatch();
    this.#next++;
    return Promise.resolve({ done: false, value: event });
  }

  async return(): Promise<IteratorResult<StreamEvent>> {
    this.#batch = [];
    await this.#batches.return?.();
    return { done: true, value: undefined };
  }

  async #nextBatch(): Promise<IteratorResult<StreamEvent>> {
    for (;;) {
      const result = await this.#batches.next();
      if (result.done) return { done: true, value: undefined };
      const first = result.value[0];
      if (first === undefined) continue;
      this.#batch = result.value;
      this.#next = 1;
      return { done: false, value: first };
    }
  }
}
