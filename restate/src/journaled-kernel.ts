import type { ExecuteOptions, FeedbackEvent, Kernel, KernelSession, ToolCallRequest, ToolResult } from "@weft/sdk";
import type { Context } from "@restatedev/restate-sdk";
import type { JournalEvents } from "./journal-events.js";

type Execute = (call: ToolCallRequest, options?: ExecuteOptions) => Promise<ToolResult>;

/**
 * The kernel with every tool call a journaled step, run through the kernel's one execute path (its
 * gate, time limit and hooks included) once. The tool gets an idempotency key made of the session,
 * the turn (the Restate invocation) and the call id, the same on every retry; what the call left in
 * the session's services is journaled with its result and put back on replay. The agent runs its
 * calls through the kernel session it opens, so the sessions the kernel hands out are journaled too,
 * and what they report goes through `steps`, which holds back what a replay would report again.
 */
export function journaledKernel(ctx: Context, steps: JournalEvents, kernel: Kernel, sessionId: string): Kernel {
  const turnId = String(ctx.request().id);
  const journaled = (run: Execute, opened?: KernelSession): Execute => async (call, options = {}) => {
    const callId = call.id ?? "";
    // A call re-run with the host's answer is a step of its own.
    const step = options.answer ? `tool ${callId} answered` : `tool ${callId}`;
    const done = await steps.step(step, async (): Promise<{ result: ToolResult; services?: Record<string, unknown> }> => {
      const result = await run(call, { ...options, idempotencyKey: `${sessionId}/${turnId}/${callId}` });
      return opened ? { result, services: opened.saveState() } : { result };
    });
    if (done.services) opened?.restoreState(done.services);
    return done.result;
  };
  const session = async (...args: Parameters<Kernel["session"]>): Promise<KernelSession> => {
    const opened = await kernel.session(...args);
    opened.hooks.feedback.tap((event) => steps.observed(event));
    const emit = (event: FeedbackEvent) => steps.emit(event, (passed) => opened.emit(passed));
    return withExecute(opened, (run) => journaled(run, opened), { emit });
  };
  return withExecute(kernel, journaled, { session });
}

/** `target` with its `execute` replaced by `wrap(execute)` (and any `extra` members), every other member bound to it. */
function withExecute<T extends { execute: Execute }>(target: T, wrap: (run: Execute) => Execute, extra: Record<string, unknown> = {}): T {
  const execute = wrap(target.execute.bind(target));
  return new Proxy(target, {
    get(object, property) {
      if (property === "execute") return execute;
      if (typeof property === "string" && property in extra) return extra[property];
      const value: unknown = Reflect.get(object, property, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}
