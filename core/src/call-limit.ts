import { setMaxListeners } from "node:events";
import { WeftError } from "@weft/sdk";
import type { AbortFanout, DeadlineTimers } from "@weft/sdk";

/** What a limit tells each call in it. */
export interface LimitedCall {
  /** The caller aborted: the call answers at once. */
  aborted(): void;
  /** The deadline passed: the call's grace starts. */
  deadlinePassed(): void;
}

/**
 * The signal and deadline the calls of one tool share when they start together: same tool, same caller's
 * signal, same time limit, same deadline (the calls of one tool round, which start within a millisecond).
 * Their signal aborts with the caller's reason or, at the deadline, with the tool's timeout, exactly as a
 * signal of each call's own would, so the calls share one: one AbortController, one deadline entry and one
 * follower of the caller's signal for the group, where each call made its own. A call leaves when it is
 * settled; the last one to leave releases the timer and the follower.
 *
 * A tool that listens to its signal adds its listener to the shared one: the listener limit Node warns past
 * is lifted for it (a group of twenty calls is not a leak).
 */
export class CallLimit {
  readonly signal: AbortSignal;
  readonly #controller = new AbortController();
  readonly #calls = new Set<LimitedCall>();
  readonly #cancelDeadline: (() => void) | undefined;

  constructor(
    readonly name: string,
    readonly timeoutMs: number,
    readonly deadline: number,
    readonly outer: AbortSignal | undefined,
    /** The timers of the deadline; none for calls without one (tools that time themselves). */
    deadlines: DeadlineTimers | undefined,
    private readonly aborts: AbortFanout,
    private readonly released: (limit: CallLimit) => void,
  ) {
    this.signal = this.#controller.signal;
    setMaxListeners(0, this.signal);
    this.#cancelDeadline = deadlines?.at(deadline, () => this.#deadlinePassed());
    if (outer?.aborted) this.#controller.abort(outer.reason);
    else if (outer) aborts.follow(outer, this);
  }

  /** Whether a call of this tool starting now under `outer`, with `timeoutMs` to its `deadline`, shares this limit. */
  fits(timeoutMs: number, deadline: number, outer: AbortSignal | undefined): boolean {
    return !this.signal.aborted && this.outer === outer && this.deadline === deadline && this.timeoutMs === timeoutMs;
  }

  /** `call` runs under this limit until it leaves; a limit already aborted tells it at once. */
  join(call: LimitedCall): void {
    this.#calls.add(call);
    if (this.signal.aborted) call.aborted();
  }

  leave(call: LimitedCall): void {
    if (!this.#calls.delete(call) || this.#calls.size > 0) return;
    this.#cancelDeadline?.();
    if (this.outer) this.aborts.unfollow(this.outer, this);
    this.released(this);
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.#controller.abort(this.outer?.reason);
    for (const call of this.#calls) call.aborted();
  }

  #deadlinePassed(): void {
    // `deadlinePassed` in the sdk recognises the reason.
    this.#controller.abort(new WeftError("DEADLINE_EXCEEDED", `${this.name} timed out after ${this.timeoutMs} ms`));
    for (const call of this.#calls) call.deadlinePassed();
  }
}
