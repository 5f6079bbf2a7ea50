/** setTimeout's ceiling; a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** What the clock watches: a call whose ceiling of quiet time is `quietUntil` (Date.now() time). */
export interface Quiet {
  readonly quietUntil: number;
  /** The ceiling passed with nothing from the server. */
  wentQuiet(): void;
}

/**
 * The quiet-time ceilings of one connection's calls, on one timer. A ceiling is a number its call moves
 * later on every progress notification and answer; the timer is set for the earliest and, when it fires,
 * ends the calls past their ceiling and is set again for the next. Nothing is cleared when a call ends or
 * moves on: a timer left for such a ceiling fires once, finds nothing due, and is set for what is left.
 * So a call sets no timer of its own, whenever it starts, and a call that reports progress sets none
 * per notification. The timer never keeps the process alive: the calls' own I/O does.
 */
export class QuietClock {
  readonly #watched = new Set<Quiet>();
  #timer: NodeJS.Timeout | undefined;
  /** When the timer set now fires; Infinity when none is set. */
  #firesAt = Infinity;

  /** Watches `call` (again, when it was paused), and reads its `quietUntil` anew. */
  watch(call: Quiet): void {
    this.#watched.add(call);
    if (call.quietUntil < this.#firesAt) this.#set(call.quietUntil);
  }

  /** Stops watching `call`: it ended, or its quiet time is paused. */
  unwatch(call: Quiet): void {
    this.#watched.delete(call);
  }

  /** Stops the timer (the connection closed). */
  close(): void {
    this.#watched.clear();
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#firesAt = Infinity;
  }

  #set(at: number): void {
    clearTimeout(this.#timer);
    this.#firesAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.min(Math.max(at - Date.now(), 0), MAX_TIMER_MS));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    this.#firesAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const call of this.#watched) {
      if (call.quietUntil <= now) {
        this.#watched.delete(call);
        call.wentQuiet();
      } else {
        next = Math.min(next, call.quietUntil);
      }
    }
    if (next < this.#firesAt) this.#set(next);
  }
}
