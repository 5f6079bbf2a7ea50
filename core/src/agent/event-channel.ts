/**
 * A one-consumer queue from a producer that pushes to an async iterator that pulls: events the turn
 * emits while it runs come out of `agent.stream()` in the order they were pushed.
 */
export class EventChannel<T> implements AsyncIterable<T> {
  readonly #buffer: T[] = [];
  #waiting: ((result: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #ended = false;
  #error: { value: unknown } | undefined;

  push(item: T): void {
    if (this.#ended) return;
    if (this.#waiting) this.#settle().resolve({ value: item, done: false });
    else this.#buffer.push(item);
  }

  /** No more items; the iterator finishes once the buffer is drained. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#waiting) this.#settle().resolve({ value: undefined, done: true });
  }

  /** The iterator throws `error` once the buffer is drained. */
  fail(error: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#error = { value: error };
    if (this.#waiting) this.#settle().reject(error);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      if (this.#buffer.length > 0) {
        yield this.#buffer.shift()!;
        continue;
      }
      if (this.#ended) {
        if (this.#error) throw this.#error.value;
        return;
      }
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        this.#waiting = resolve;
        this.#failWaiting = reject;
      });
      if (next.done) return;
      yield next.value;
    }
  }

  #settle(): { resolve: (result: IteratorResult<T>) => void; reject: (error: unknown) => void } {
    const settled = { resolve: this.#waiting!, reject: this.#failWaiting! };
    this.#waiting = undefined;
    this.#failWaiting = undefined;
    return settled;
  }
}
