import type { DeadlineTimers, ToolProgress } from "@weft/sdk";
import type { CallResult } from "./flatten-result.js";
import type { HeldElicitation } from "./elicitation-bridge.js";

/** setTimeout's ceiling; a longer delay would fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** What a tool's execute must handle next: the call's end, or a question the server asked meanwhile. */
export type CallOutcome =
  | { kind: "result"; result: CallResult }
  | { kind: "failed"; error: unknown; timedOut: boolean }
  | { kind: "elicitation"; elicitation: HeldElicitation };

export interface CallStarter {
  (options: { signal: AbortSignal; onprogress: (progress: ToolProgress) => void }): Promise<CallResult>;
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
 * The call's end goes straight to the `next` waiting for it (no promise race a call), and `onFinished`
 * runs once it has ended, whoever is listening. The quiet-time ceilings are the connection's
 * `DeadlineTimers`: the calls of one round, started in the same millisecond, share one timer.
 */
export class InFlightCall {
  readonly #controller = new AbortController();
  readonly #quietMs: number;
  readonly #timers: DeadlineTimers;
  readonly #onFinished: () => void;
  #outcome: CallOutcome | undefined;
  /** The `next` waiting now, for the call's end or its next question. */
  #waiter: ((outcome: CallOutcome) => void) | undefined;
  readonly #unclaimed: HeldElicitation[] = [];
  #onProgress: ((progress: ToolProgress) => void) | undefined;
  /** Cancels the quiet-time ceiling now running, if one is. */
  #cancelQuiet: (() => void) | undefined;
  #unanswered = 0;
  #timedOut = false;

  constructor(start: CallStarter, quietMs: number, timers: DeadlineTimers, onFinished: () => void) {
    this.#quietMs = quietMs;
    this.#timers = timers;
    this.#onFinished = onFinished;
    start({ signal: this.#controller.signal, onprogress: (progress) => this.#progress(progress) }).then(
      (result) => this.#settle({ kind: "result", result }),
      (error: unknown) => this.#settle({ kind: "failed", error, timedOut: this.#timedOut }),
    );
    this.#arm();
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
    const queued = this.#unclaimed.shift();
    if (queued) return Promise.resolve({ kind: "elicitation", elicitation: queued });
    const { signal } = watcher;
    const abort = () => this.cancel(signal.reason);
    if (signal.aborted) abort();
    if (this.#outcome) return Promise.resolve(this.#outcome);
    return new Promise<CallOutcome>((resolve) => {
      this.#onProgress = watcher.onProgress;
      this.#waiter = (outcome) => {
        this.#waiter = undefined;
        this.#onProgress = undefined;
        signal.removeEventListener("abort", abort);
        resolve(outcome);
      };
      signal.addEventListener("abort", abort, { once: true });
    });
  }

  /** A question the server asked during this call; the quiet-time ceiling waits for its answer. */
  elicit(elicitation: HeldElicitation): void {
    this.#unanswered++;
    this.#cancelQuiet?.();
    if (this.#waiter) this.#waiter({ kind: "elicitation", elicitation });
    else this.#unclaimed.push(elicitation);
  }

  /** A question was answered (or given up on): the ceiling runs again once none is left. */
  answered(): void {
    this.#unanswered = Math.max(0, this.#unanswered - 1);
    if (this.#unanswered === 0) this.#arm();
  }

  /** Sends `notifications/cancelled` and fails the call. */
  cancel(reason?: unknown): void {
    this.#controller.abort(reason);
  }

  #settle(outcome: CallOutcome): void {
    this.#outcome = outcome;
    this.#cancelQuiet?.();
    this.#onFinished();
    this.#waiter?.(outcome);
  }

  #progress(progress: ToolProgress): void {
    if (this.#unanswered === 0) this.#arm();
    this.#onProgress?.(progress);
  }

  #arm(): void {
    this.#cancelQuiet?.();
    this.#cancelQuiet = undefined;
    if (this.#outcome) return;
    this.#cancelQuiet = this.#timers.at(Date.now() + Math.min(this.#quietMs, MAX_TIMER_MS), () => {
      this.#timedOut = true;
      this.cancel(new Error(`no result or progress for ${this.#quietMs} ms`));
    });
  }
}
