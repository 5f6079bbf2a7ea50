import { errorResult } from "@weft/sdk";
import type { ToolResult } from "@weft/sdk";
import type { CallLimit, LimitedCall } from "./call-limit.js";

/**
 * How long after its deadline (its signal aborted) a tool may still hand back its own result, e.g. a
 * script's partial output; then the execute path answers for it. The one grace for every tool.
 */
const DEADLINE_GRACE_MS = 500;

/**
 * One tool call while it runs: its signal, which carries both the deadline and the caller's abort, and
 * its one answer, whichever comes first of the tool's result, the caller's abort and the deadline (after
 * the grace). The signal and the deadline are its limit's, which the calls of a tool started together
 * share (`CallLimit`); the call is in it only while it runs (a turn's signal outlives many calls).
 *
 * The signal is there when the call is made, so the tool's context holds it as a plain field: a context
 * object with a `signal` getter cost V8's slow object-literal path.
 */
export class RunningCall implements LimitedCall {
  /** The call's one answer (it never rejects). Made here, so the execute path wraps no promise executor (a closure and its scope per call) around the call. */
  readonly answer: Promise<ToolResult>;
  #resolve!: (result: ToolResult) => void;
  #settled = false;
  #grace: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly limit: CallLimit) {
    this.answer = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    limit.join(this);
  }

  get signal(): AbortSignal {
    return this.limit.signal;
  }

  get deadline(): number {
    return this.limit.deadline;
  }

  /** The caller's abort reaches the tool with its reason and answers at once. */
  aborted(): void {
    this.settle(errorResult(`${this.limit.name} was aborted`, { aborted: true }));
  }

  /** At the deadline the signal aborts; a tool that stops then still reports itself within the grace. One that ignores its signal cannot hold the caller longer. */
  deadlinePassed(): void {
    const { name, timeoutMs } = this.limit;
    this.#grace = setTimeout(() => this.settle(errorResult(`${name} timed out after ${timeoutMs} ms`, { timedOut: true })), DEADLINE_GRACE_MS);
  }

  /** The call's answer; the first one counts. */
  settle(result: ToolResult): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#grace);
    this.limit.leave(this);
    this.#resolve(result);
  }
}
