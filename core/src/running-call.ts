import { WeftError, errorResult } from "@weft/sdk";
import type { AbortFanout, DeadlineTimers, ToolResult } from "@weft/sdk";

/**
 * How long after its deadline (its signal aborted) a tool may still hand back its own result, e.g. a
 * script's partial output; then the execute path answers for it. The one grace for every tool.
 */
const DEADLINE_GRACE_MS = 500;

/**
 * One tool call while it runs: its signal, which carries both the deadline and the caller's abort, and
 * its one answer, whichever comes first of the tool's result, the caller's abort and the deadline (after
 * the grace). The caller's signal is followed only while the call runs (a turn's signal outlives many
 * calls), through the executor's one listener on it (`AbortFanout`, calling `handleEvent`).
 *
 * The signal is made with the call, so the tool's context holds it as a plain field: a context object
 * with a `signal` getter (made on first read) cost V8's slow object-literal path, more CPU and memory
 * than the AbortController it saved for tools that never read it.
 */
export class RunningCall {
  readonly deadline: number;
  readonly #cancelDeadline: (() => void) | undefined;
  readonly #limit = new AbortController();
  #settled = false;
  #grace: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly name: string,
    private readonly timeoutMs: number,
    private readonly outer: AbortSignal | undefined,
    private readonly resolve: (result: ToolResult) => void,
    /** The timers of the deadline; none for a call without one (a tool that times itself). */
    deadlines: DeadlineTimers | undefined,
    private readonly aborts: AbortFanout,
  ) {
    this.deadline = Date.now() + timeoutMs;
    this.#cancelDeadline = deadlines?.at(this.deadline, () => this.deadlinePassed());
    // The caller's abort reaches the tool with its reason and answers at once.
    if (outer?.aborted) this.handleEvent();
    else if (outer) aborts.follow(outer, this);
  }

  get signal(): AbortSignal {
    return this.#limit.signal;
  }

  /** The caller aborted. */
  handleEvent(): void {
    this.#limit.abort(this.outer?.reason);
    this.settle(errorResult(`${this.name} was aborted`, { aborted: true }));
  }

  /** At the deadline the signal aborts; a tool that stops then still reports itself within the grace. One that ignores its signal cannot hold the caller longer. */
  deadlinePassed(): void {
    // `deadlinePassed` in the sdk recognises the reason. After the caller's abort, its reason stays.
    this.#limit.abort(new WeftError("DEADLINE_EXCEEDED", `${this.name} timed out after ${this.timeoutMs} ms`));
    this.#grace = setTimeout(() => this.settle(errorResult(`${this.name} timed out after ${this.timeoutMs} ms`, { timedOut: true })), DEADLINE_GRACE_MS);
  }

  /** The call's answer; the first one counts. */
  settle(result: ToolResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#cancelDeadline?.();
    clearTimeout(this.#grace);
    if (this.outer) this.aborts.unfollow(this.outer, this);
    this.resolve(result);
  }
}
