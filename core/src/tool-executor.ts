import { AbortFanout, DeadlineTimers, echoed, errorMessage, errorResult } from "@weft/sdk";
import type {
  ExecuteOptions,
  FeedbackEvent,
  HookContext,
  ToolCallInfo,
  ToolCallRequest,
  ToolDescriptor,
  ToolResult,
  ToolContext,
  ToolSessionContext,
  ToolVerdict,
} from "@weft/sdk";
import { ArgumentValidator } from "./argument-validator.js";
import { CallLimit } from "./call-limit.js";
import { RunningCall } from "./running-call.js";
import type { HookSet } from "./hook-set.js";
import { runnableOf } from "./tool-box.js";

/** A call's time limit when neither the caller nor the tool sets one. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
/** setTimeout's ceiling: a limit at or past it is no limit (the tool times itself). */
const MAX_TIMER_MS = 2_147_483_647;

/** The tools an execute path can see: the kernel's, or a session's overlay. */
export interface ToolView {
  get(name: string): ToolDescriptor | undefined;
  list(): ToolDescriptor[];
  /** The listing as a frozen array whose identity changes only when the listing does. */
  snapshot(): readonly ToolDescriptor[];
}

/** What one executor reports to: the kernel's feedback, or a session's. */
export interface ExecutorHost {
  readonly tools: ToolView;
  readonly hooks: HookSet;
  emit(event: FeedbackEvent, context: HookContext): void;
  /** The session the calls run in, for `ctx.session`. */
  readonly session?: ToolSessionContext;
}

/**
 * The one execute path every tool call takes, whatever its source: look up, validate, gate, run with
 * a signal and a deadline, post-process, report. It never rejects: every problem (a tool's failure, a
 * throwing tap, a closed kernel) becomes an error result the model can read.
 */
export class ToolExecutor {
  readonly #validator = new ArgumentValidator();
  readonly #deadlines = new DeadlineTimers();
  readonly #aborts = new AbortFanout();
  /** Each tool's limit made last, while a call runs in it: the next call of that tool joins it when it fits. */
  readonly #limits = new Map<string, CallLimit>();
  readonly #released = (limit: CallLimit): void => {
    if (this.#limits.get(limit.name) === limit) this.#limits.delete(limit.name);
  };
  #nextId = 0;

  constructor(private readonly host: ExecutorHost) {}

  async execute(request: ToolCallRequest, options: ExecuteOptions, context: HookContext): Promise<ToolResult> {
    const id = request.id ?? `call_${++this.#nextId}`;
    try {
      const tool = this.host.tools.get(request.name);
      if (!tool) return this.#report(id, request, this.#unknownTool(request.name), undefined, context);
      const call: ToolCallInfo = { id, name: request.name, arguments: request.arguments ?? {}, tool };
      const started = performance.now();
      let result = await this.#decide(call, options, context);
      // With no afterToolCall tap the result is final, with no await (a microtask per call) in between.
      if (this.host.hooks.afterToolCall.live) result = await this.#after(result, call, context);
      return this.#report(id, call, result, started, context);
    } catch (error) {
      return this.#report(id, request, errorResult(`${request.name} could not run: ${errorMessage(error)}`), undefined, context);
    }
  }

  /**
   * Validates, gates, runs. With no gate to ask, the tool starts before this returns: a parallel call's
   * request goes out before the next call's validation runs, not after a microtask hop per call.
   */
  #decide(call: ToolCallInfo, options: ExecuteOptions, context: HookContext): ToolResult | Promise<ToolResult> {
    if (runnableOf(call.tool)?.validateInput) {
      return this.#ownValidation(call).then((invalid) => invalid ?? this.#gateThenProceed(call, options, context));
    }
    if (!this.#validator.ready) return this.#validator.load().then(() => this.#decide(call, options, context));
    return this.#invalidArguments(call.tool, call.arguments) ?? this.#gateThenProceed(call, options, context);
  }

  #gateThenProceed(call: ToolCallInfo, options: ExecuteOptions, context: HookContext): ToolResult | Promise<ToolResult> {
    const gate = this.host.hooks.beforeToolCall;
    if (!gate.live) return this.#proceed(call, options, undefined, context);
    return (gate.promise(call, context) as Promise<ToolVerdict | undefined>).then(
      (verdict) => this.#proceed(call, options, verdict, context),
      // A throwing gate blocks the call: a policy that could not decide must not let it through.
      (error: unknown) => errorResult(`tool call blocked: ${errorMessage(error)}`),
    );
  }

  /** The result the `afterToolCall` taps make of it; a throwing tap's error is the result. */
  #after(result: ToolResult, call: ToolCallInfo, context: HookContext): Promise<ToolResult> {
    return (this.host.hooks.afterToolCall.promise(result, call, context) as Promise<ToolResult>).catch((error: unknown) => errorResult(errorMessage(error)));
  }

  #proceed(call: ToolCallInfo, options: ExecuteOptions, verdict: ToolVerdict | undefined, context: HookContext): ToolResult | Promise<ToolResult> {
    if (verdict?.action === "rewrite") return this.#rewritten(call, options, verdict.arguments, context);
    // Reported once the gate has spoken, with the arguments the tool is about to run with.
    if (this.#observed) this.host.emit({ type: "tool.called", callId: call.id, name: call.name, arguments: call.arguments }, context);
    if (verdict?.action === "deny") return errorResult(`tool call blocked: ${verdict.reason}`);
    if (verdict?.action === "answer") return verdict.result;
    return this.#run(call, options, context);
  }

  /** The gate rewrote the arguments: they are validated again before the call proceeds with them. */
  async #rewritten(call: ToolCallInfo, options: ExecuteOptions, args: Record<string, unknown>, context: HookContext): Promise<ToolResult> {
    call.arguments = args;
    const stillInvalid = runnableOf(call.tool)?.validateInput ? await this.#ownValidation(call) : this.#invalidArguments(call.tool, call.arguments);
    return stillInvalid ?? this.#proceed(call, options, undefined, context);
  }

  /** Whether anyone observes feedback now: an event nobody reads is not built. */
  get #observed(): boolean {
    return this.host.hooks.feedback.live;
  }

  #run(call: ToolCallInfo, options: ExecuteOptions, context: HookContext): Promise<ToolResult> {
    const descriptor = call.tool;
    const tool = runnableOf(descriptor);
    if (!tool) return Promise.resolve(errorResult(`${descriptor.name} is not a registered tool`));
    const timeoutMs = Math.min(options.timeoutMs ?? descriptor.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, MAX_TIMER_MS);
    const run = new RunningCall(this.#limitFor(descriptor.name, timeoutMs, options.signal));
    const ctx: ToolContext = {
      signal: run.signal,
      deadline: run.deadline,
      callId: call.id,
      onProgress: (progress) => {
        options.onProgress?.(progress);
        if (this.#observed) this.host.emit({ type: "tool.progress", callId: call.id, name: descriptor.name, progress }, context);
      },
    };
    if (this.host.session) ctx.session = this.host.session;
    if (options.answer) ctx.answer = options.answer;
    if (options.pending) ctx.pending = options.pending;
    if (options.idempotencyKey !== undefined) ctx.idempotencyKey = options.idempotencyKey;
    let running: Promise<ToolResult>;
    try {
      running = tool.execute(call.arguments as never, ctx);
    } catch (error) {
      run.settle(failed(descriptor, error));
      return run.answer;
    }
    Promise.resolve(running).then(
      (result) => run.settle(normalise(result)),
      (error: unknown) => run.settle(failed(descriptor, error)),
    );
    return run.answer;
  }

  /** The limit a call of `name` starting now joins: the tool's last one when it fits, else a new one. */
  #limitFor(name: string, timeoutMs: number, outer: AbortSignal | undefined): CallLimit {
    const deadline = Date.now() + timeoutMs;
    const last = this.#limits.get(name);
    if (last?.fits(timeoutMs, deadline, outer)) return last;
    // A limit at the timer's ceiling is none (a tool that times itself): no timer for it.
    const limit = new CallLimit(name, timeoutMs, deadline, outer, timeoutMs < MAX_TIMER_MS ? this.#deadlines : undefined, this.#aborts, this.#released);
    this.#limits.set(name, limit);
    return limit;
  }

  /**
   * A Standard Schema tool validates with its own library, whose output (defaults, coercions,
   * transforms) replaces the arguments the tool runs with.
   */
  async #ownValidation(call: ToolCallInfo): Promise<ToolResult | undefined> {
    const validate = runnableOf(call.tool)?.validateInput;
    if (!validate) return undefined;
    let outcome: Awaited<ReturnType<typeof validate>>;
    try {
      outcome = await validate(call.arguments);
    } catch (error) {
      return errorResult(`tool ${call.tool.name} could not validate its arguments: ${errorMessage(error)}`);
    }
    if ("value" in outcome) {
      call.arguments = outcome.value;
      return undefined;
    }
    return invalidArgumentsResult(call.tool.name, outcome.problems);
  }

  #invalidArguments(tool: ToolDescriptor, args: Record<string, unknown>): ToolResult | undefined {
    let problems: readonly string[];
    try {
      problems = this.#validator.problems(tool, args);
    } catch (error) {
      return errorResult(`tool ${tool.name} has an invalid input schema: ${errorMessage(error)}`);
    }
    return problems.length === 0 ? undefined : invalidArgumentsResult(tool.name, problems);
  }

  #unknownTool(name: string): ToolResult {
    const names = this.host.tools.list().map((tool) => tool.name);
    return errorResult(`unknown tool: ${echoed(name)}. Available tools: ${names.length ? names.join(", ") : "(none)"}`);
  }

  /** Tells feedback observers the result, with the time since `started` (undefined: the call did not start); the clock is read only for them. */
  #report(id: string, call: { name: string }, result: ToolResult, started: number | undefined, context: HookContext): ToolResult {
    if (this.#observed) {
      const elapsedMs = started === undefined ? 0 : performance.now() - started;
      this.host.emit({ type: "tool.returned", callId: id, name: call.name, result, isError: result.isError === true, elapsedMs }, context);
    }
    return result;
  }
}

function invalidArgumentsResult(name: string, problems: readonly string[]): ToolResult {
  return errorResult(`invalid arguments for ${name}:\n${problems.map((problem) => `- ${problem}`).join("\n")}`);
}

function normalise(result: ToolResult | string): ToolResult {
  // An application's tool may answer with plain text.
  if (typeof result === "string") return { output: result };
  if (result && typeof result.output === "string") return result;
  return errorResult(`tool returned no output text (expected { output: string })`);
}

function failed(tool: ToolDescriptor, error: unknown): ToolResult {
  return errorResult(`${tool.name} failed: ${errorMessage(error)}`);
}
