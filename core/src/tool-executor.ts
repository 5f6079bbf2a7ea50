import { errorMessage, errorResult } from "@weft/sdk";
import type { ExecuteOptions, FeedbackEvent, RegisteredTool, ToolCallInfo, ToolCallRequest, ToolResult, ToolVerdict } from "@weft/sdk";
import { ArgumentValidator } from "./argument-validator.js";
import type { HookSet } from "./hook-set.js";
import type { ToolBox } from "./tool-box.js";

/** A call's time limit when neither the caller nor the tool sets one. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** setTimeout's ceiling. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * The one execute path every tool call takes, whatever its source: look up, validate, gate, run with
 * a signal and a time limit, post-process, report. It never throws for a tool's failure: every
 * problem becomes an error result the model can read.
 */
export class ToolExecutor {
  readonly #validator = new ArgumentValidator();
  #nextId = 0;

  constructor(
    private readonly toolBox: ToolBox,
    private readonly hooks: HookSet,
    private readonly emit: (event: FeedbackEvent) => void,
  ) {}

  async execute(request: ToolCallRequest, options: ExecuteOptions = {}): Promise<ToolResult> {
    const id = request.id ?? `call_${++this.#nextId}`;
    const tool = this.toolBox.get(request.name);
    if (!tool) return this.#report(id, request, this.#unknownTool(request.name), 0);
    const call: ToolCallInfo = { id, name: request.name, arguments: request.arguments ?? {}, tool };
    const started = performance.now();
    const result = await this.#decide(call, options);
    const final = this.hooks.live(this.hooks.afterToolCall) ? await this.hooks.afterToolCall.promise(result, call) : result;
    return this.#report(id, call, final, performance.now() - started);
  }

  /**
   * Validates, gates, runs. With no gate to ask, the tool starts before this returns: a parallel call's
   * request goes out before the next call's validation runs, not after a microtask hop per call.
   */
  #decide(call: ToolCallInfo, options: ExecuteOptions): ToolResult | Promise<ToolResult> {
    const invalid = this.#invalidArguments(call.tool, call.arguments);
    if (invalid) return invalid;
    if (!this.#gated()) return this.#proceed(call, options, undefined);
    return this.#gate(call).then((verdict) => this.#proceed(call, options, verdict));
  }

  #proceed(call: ToolCallInfo, options: ExecuteOptions, verdict: ToolVerdict | null | undefined): ToolResult | Promise<ToolResult> {
    if (verdict?.action === "rewrite") {
      call.arguments = verdict.arguments;
      const stillInvalid = this.#invalidArguments(call.tool, call.arguments);
      if (stillInvalid) return stillInvalid;
    }
    // Reported once the gate has spoken, with the arguments the tool is about to run with.
    this.emit({ type: "tool.called", callId: call.id, name: call.name, arguments: call.arguments });
    if (verdict?.action === "deny") return errorResult(`tool call blocked: ${verdict.reason}`);
    if (verdict?.action === "answer") return verdict.result;
    return this.#run(call, options);
  }

  #gated(): boolean {
    return this.toolBox.interceptor !== null || this.hooks.live(this.hooks.earlyToolGates) || this.hooks.live(this.hooks.beforeToolCall);
  }

  /**
   * The interception gate: the gates of stages before POLICY, then the interceptor slot (a POLICY gate
   * that comes first in its stage), then the gates of POLICY and later; the first verdict wins. A gate
   * nobody taps is skipped.
   */
  async #gate(call: ToolCallInfo): Promise<ToolVerdict | null | undefined> {
    const { earlyToolGates, beforeToolCall } = this.hooks;
    if (this.hooks.live(earlyToolGates)) {
      const verdict = await earlyToolGates.promise(call);
      if (verdict !== undefined) return verdict;
    }
    const interceptor = this.toolBox.interceptor;
    if (interceptor) {
      const verdict = (await interceptor(call)) ?? undefined;
      if (verdict !== undefined) return verdict;
    }
    return this.hooks.live(beforeToolCall) ? beforeToolCall.promise(call) : undefined;
  }

  #run(call: ToolCallInfo, options: ExecuteOptions): Promise<ToolResult> {
    const { tool } = call;
    const timeoutMs = options.timeoutMs ?? tool.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    // One controller carries both the time limit and the caller's abort, forwarded to it while the
    // call runs (AbortSignal.any costs several times more); `timedOut` tells the two apart.
    const limit = new AbortController();
    const { signal } = limit;
    let timedOut = false;
    // A limit beyond setTimeout's range is no limit (a tool that times itself says so); such a timer
    // would fire at once.
    const timer =
      timeoutMs < MAX_TIMER_MS
        ? setTimeout(() => {
            timedOut = true;
            limit.abort(new Error("timeout"));
          }, timeoutMs)
        : undefined;
    const outer = options.signal;
    const forward = () => limit.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener("abort", forward, { once: true });
    return new Promise<ToolResult>((resolve) => {
      let settled = false;
      const settle = (result: ToolResult) => {
        if (settled) return;
        settled = true;
        // The call is over: its signal no longer follows the caller's (a turn's signal outlives many calls).
        clearTimeout(timer);
        outer?.removeEventListener("abort", forward);
        resolve(result);
      };
      // A tool that ignores its signal still cannot hold the caller past the limit or an abort.
      const onAbort = () =>
        settle(
          timedOut
            ? errorResult(`${tool.name} timed out after ${timeoutMs} ms`, { timedOut: true })
            : errorResult(`${tool.name} was aborted`, { aborted: true }),
        );
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
      let running: ToolResult | Promise<ToolResult>;
      try {
        running = tool.execute(call.arguments, {
          signal,
          callId: call.id,
          answer: options.answer,
          pending: options.pending,
          ...(options.idempotencyKey !== undefined ? { idempotencyKey: options.idempotencyKey } : {}),
          onProgress: (progress) => {
            options.onProgress?.(progress);
            this.emit({ type: "tool.progress", callId: call.id, name: tool.name, progress });
          },
        });
      } catch (error) {
        settle(failed(tool, error));
        return;
      }
      Promise.resolve(running).then(
        (result) => settle(normalise(result)),
        (error: unknown) => settle(failed(tool, error)),
      );
    });
  }

  #invalidArguments(tool: RegisteredTool, args: Record<string, unknown>): ToolResult | undefined {
    let problems: string[];
    try {
      problems = this.#validator.problems(tool, args);
    } catch (error) {
      return errorResult(`tool ${tool.name} has an invalid input schema: ${errorMessage(error)}`);
    }
    if (problems.length === 0) return undefined;
    return errorResult(`invalid arguments for ${tool.name}:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
  }

  #unknownTool(name: string): ToolResult {
    const names = this.toolBox.list().map((tool) => tool.name);
    return errorResult(`unknown tool: ${name}. Available tools: ${names.length ? names.join(", ") : "(none)"}`);
  }

  #report(id: string, call: { name: string }, result: ToolResult, elapsedMs: number): ToolResult {
    this.emit({ type: "tool.returned", callId: id, name: call.name, result, isError: result.isError === true, elapsedMs });
    return result;
  }
}

function normalise(result: ToolResult): ToolResult {
  if (result && typeof result.output === "string") return result;
  return errorResult(`tool returned no output text (expected { output: string })`);
}

function failed(tool: RegisteredTool, error: unknown): ToolResult {
  return errorResult(`${tool.name} failed: ${errorMessage(error)}`);
}
