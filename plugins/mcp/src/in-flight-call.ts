import type { AbortFanout, ToolProgress } from "@weft/sdk";
import type { CallResult } from "./flatten-result.js";
import type { HeldElicitation } from "./elicitation-bridge.js";
import type { Quiet, QuietClock } from "./quiet-clock.js";

/** What a tool's execute must handle next: the call's end, or a question the server asked meanwhile. */
export type CallOutcome =
  | { kind: "result"; result: CallResult }
  | { kind: "failed"; error: unknown; timedOut: boolean }
  | { kind: "elicitation"; elicitation: HeldElicitation };

/** Where a `tools/call` request reports its end: straight to its call, no promise in between. */
export interface CallEnd {
  succeeded(result: CallResult): void;
  failed(error: unknown): void;
}

/**
 * How a `tools/call` on its way is called off (the server hears a `notifications/cancelled` or the SDK's
 * own cancel; nothing happens once the call has ended). weft's own exchange cancels any of its calls
 * with one object, told which; only the SDK's paths make an AbortController for a call.
 */
export interface SentCall {
  cancel(call: InFlightCall, reason: unknown): void;
}

/** What one `next` call listens to: the caller's signal and progress callback of that execute. */
export interface CallWatcher {
  signal: AbortSignal;
  onProgress(progress: ToolProgress): void;
}

/**
 * One `tools/call` in flight. It can outlive the execute that started it: when the server asks an
 * elicitation, that execute returns a `pending` result and the re-run with the answer picks the call up
 * again with `next`. Its ceiling is "quiet time": it restarts on every progress notification and on every
 * answer, and is paused while a question waits for the host.
 *
 * The call is in its connection's map of calls in flight, under its id, from its start to its end,
 * whoever is listening; its end goes straight to the `next` waiting for it (no promise race a call). The
 * quiet-time ceiling is watched by the connection's `QuietClock`, one timer for all its calls, which
 * reads that map. The call follows the waiting execute's signal through the connection's `AbortFanout`
 * (the calls of a round share their signal: one listener on it for all of them) and hears the progress
 * the connection routes to it (`progress`): following an execute makes no closure and no listener of its
 * own.
 */
export class InFlightCall implements Quiet, CallEnd {
  /** The call's progress token, and its request id on weft's own exchange: one id for the call everywhere. */
  readonly id: string;
  readonly #quietMs: number;
  readonly #calls: Map<string, InFlightCall>;
  readonly #clock: QuietClock;
  readonly #aborts: AbortFanout;
  /** How its request was sent; set once it has been (see `sent`). */
  #sent: SentCall | undefined;
  #outcome: CallOutcome | undefined;
  /** The `next` waiting now, for the call's end or its next question, and what it listens to. */
  #waiter: ((outcome: CallOutcome) => void) | undefined;
  #watcher: CallWatcher | undefined;
  /** Questions asked while no `next` waited (made at the first: most calls ask none). */
  #unclaimed: HeldElicitation[] | undefined;
  /** Infinity while a question waits for the host, and once the call went quiet: the clock passes it by. */
  #quietUntil = Number.POSITIVE_INFINITY;
  #unanswered = 0;
  #timedOut = false;

  /**
   * A call about to be sent: in `calls` before its request goes out, so that its progress (or an end at
   * once) finds it there. `sent` then says how the request went.
   */
  constructor(id: string, quietMs: number, calls: Map<string, InFlightCall>, clock: QuietClock, aborts: AbortFanout) {
    this.id = id;
    this.#quietMs = quietMs;
    this.#calls = calls;
    this.#clock = clock;
    this.#aborts = aborts;
    calls.set(id, this);
    this.#arm();
  }

  /** How the call's request went out, which its cancel goes through. */
  sent(sent: SentCall): void {
    this.#sent = sent;
  }

  /** When the call goes quiet, unless the server sends something first. */
  get quietUntil(): number {
    return this.#quietUntil;
  }

  get done(): boolean {
    return this.#outcome !== undefined;
  }

  /** Whether a question of this call is with the host. */
  get waitingForAnswer(): boolean {
    return this.#unanswered > 0;
  }

  /** Resolves with the call's end or the next elicitation; the watcher's abort cancels the call. */
  next(watcher: CallWatcher): Promise<CallOutcome> {
    const queued = this.#unclaimed?.shift();
    if (queued) return Promise.resolve({ kind: "elicitation", elicitation: queued });
    const { signal } = watcher;
    if (signal.aborted) this.cancel(signal.reason);
    if (this.#outcome) return Promise.resolve(this.#outcome);
    return new Promise<CallOutcome>((resolve) => {
      this.#waiter = resolve;
      this.#watcher = watcher;
      if (!signal.aborted) this.#aborts.follow(signal, this);
    });
  }

  /** The waiting execute's signal aborted: the call is cancelled with its reason. */
  handleEvent(): void {
    if (this.#watcher) this.cancel(this.#watcher.signal.reason);
  }

  /** A question the server asked during this call; the quiet-time ceiling waits for its answer. */
  elicit(elicitation: HeldElicitation): void {
    this.#unanswered++;
    this.#quietUntil = Number.POSITIVE_INFINITY;
    if (this.#waiter) this.#tell({ kind: "elicitation", elicitation });
    else if (this.#unclaimed) this.#unclaimed.push(elicitation);
    else this.#unclaimed = [elicitation];
  }

  /** A question was answered (or given up on): the ceiling runs again once none is left. */
  answered(): void {
    this.#unanswered = Math.max(0, this.#unanswered - 1);
    if (this.#unanswered === 0) this.#arm();
  }

  /** A progress notification of this call: the quiet time starts again, and the waiting execute hears it. */
  progress(progress: ToolProgress): void {
    if (this.#outcome) return;
    if (this.#unanswered === 0) this.#arm();
    this.#watcher?.onProgress(progress);
  }

  /** Sends `notifications/cancelled` and fails the call. */
  cancel(reason?: unknown): void {
    this.#sent?.cancel(this, reason);
  }

  succeeded(result: CallResult): void {
    this.#settle({ kind: "result", result });
  }

  failed(error: unknown): void {
    this.#settle({ kind: "failed", error, timedOut: this.#timedOut });
  }

  /** The call's end; the first one counts. */
  #settle(outcome: CallOutcome): void {
    if (this.#outcome) return;
    this.#outcome = outcome;
    this.#calls.delete(this.id);
    if (this.#waiter) this.#tell(outcome);
  }

  /** Hands `outcome` to the waiting `next`, which stops listening. */
  #tell(outcome: CallOutcome): void {
    const waiter = this.#waiter;
    if (this.#watcher) this.#aborts.unfollow(this.#watcher.signal, this);
    this.#waiter = undefined;
    this.#watcher = undefined;
    waiter?.(outcome);
  }

  /** The clock's word that the ceiling passed: the call is cancelled as timed out. */
  wentQuiet(): void {
    this.#quietUntil = Number.POSITIVE_INFINITY;
    this.#timedOut = true;
    this.cancel(new Error(`no result or progress for ${this.#quietMs} ms`));
  }

  /** The quiet time starts (again) now. */
  #arm(): void {
    if (this.#outcome) return;
    this.#quietUntil = Date.now() + this.#quietMs;
    this.#clock.watch(this);
  }
}
