import type { ExecuteOptions, Kernel, ToolCallRequest, ToolResult } from "@weft/sdk";
import type { Context } from "@restatedev/restate-sdk";

/**
 * The kernel with every tool call a journaled step, run through the kernel's one execute path (its
 * gate, time limit and hooks included) once. The tool gets an idempotency key made of the session,
 * the turn (the Restate invocation) and the call id, the same on every retry.
 */
export function journaledKernel(ctx: Context, kernel: Kernel, sessionId: string): Kernel {
  const turnId = String(ctx.request().id);
  const execute = (call: ToolCallRequest, options: ExecuteOptions = {}): Promise<ToolResult> => {
    const callId = call.id ?? "";
    // A call re-run with the host's answer is a step of its own.
    const step = options.answer ? `tool ${callId} answered` : `tool ${callId}`;
    return ctx.run(step, () => kernel.execute(call, { ...options, idempotencyKey: `${sessionId}/${turnId}/${callId}` }));
  };
  return new Proxy(kernel, {
    get(target, property) {
      if (property === "execute") return execute;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
