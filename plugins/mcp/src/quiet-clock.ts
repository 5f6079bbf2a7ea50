/** setTimeout's ceiling; a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** What the clock watches: a call whose ceiling of quiet time is `quietUntil` (Date.now() time; Infinity while paused). */
export interface Quiet {
  readonly quietUntil: number;
  /** The ceiling passed with nothing from the server. */
  wentQuiet(): void;
}

/**
 * The quiet-time ceilings of one connection's calls in flight, on one timer. A ceiling is a number its
 * call moves later on every progress notification and answer; the timer is set for the earliest and,
 * when it fires, ends the calls past their ceiling and is set again for the next. Nothing is cleared when
 * a call ends or moves on: a timer left for such a ceiling fires once, finds nothing due, and is set for
 * what is left. So a call sets no timer of its own, whenever it starts, and a call that reports progress
 * sets none per notification. The clock reads the connection's own map of calls in flight when it fires:
 * watching a call keeps no entry of its own. The timer never keeps the process alive: the calls' own I/O
 * does.
 */
export class QuietClock {
  readonly #calls: ReadonlyMap<unknown, Quiet>;
  #timer: NodeJS.Timeout | undefined;
  /** When the timer set now fires; Infinity when none is set. */
  #firesAt = Infinity;

  constructor(calls: ReadonlyMap<unknown, Quiet>) {
    this.#calls = calls;
  }

  /** Reads the `quietUntil` of `call`, one of the calls in flight, anew (it started, or moved its ceiling). */
  watch(call: Quiet): void {
    if (call.quietUntil < this.#firesAt) this.#set(call.quietUntil);
  }

  /** Stops the timer (the connection closed). */
  close(): void {
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
    for (const call of this.#calls.values()) {
      // A call that went quiet moves its ceiling to Infinity (and leaves the calls once its cancel ends it).
      if (call.quietUntil <= now) call.wentQuiet();
      else next = Math.min(next, call.quietUntil);
    }
    if (next < this.#firesAt) this.#set(next);
  }
}
