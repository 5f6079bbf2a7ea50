import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, defineTool, definePlugin, type FeedbackEvent, type Tool } from "@weft/sdk";
import { createKernel } from "./kernel.js";

const add = defineTool({
  name: "add",
  description: "Add two numbers",
  input: Type.Object({ a: Type.Number(), b: Type.Number() }),
  execute: ({ a, b }) => ({ output: String(a + b) }),
});

async function kernelWith(...tools: Tool<any>[]) {
  const kernel = createKernel();
  const events: FeedbackEvent[] = [];
  kernel.hooks.feedback.tap((event) => void events.push(event));
  for (const tool of tools) kernel.hooks.tools.tap((registrar) => void registrar.add(tool));
  await kernel.ready();
  return { kernel, events };
}

describe("the execute path", () => {
  it("runs a valid call and reports it", async () => {
    const { kernel, events } = await kernelWith(add);
    expect(await kernel.execute({ id: "c1", name: "add", arguments: { a: 2, b: 3 } })).toEqual({ output: "5" });
    expect(events.map((event) => event.type)).toEqual(["tool.called", "tool.returned"]);
    expect(events[0]).toEqual({ type: "tool.called", callId: "c1", name: "add", arguments: { a: 2, b: 3 } });
    expect(events[1]).toMatchObject({ type: "tool.returned", callId: "c1", name: "add", isError: false, result: { output: "5" } });
  });

  it("names an unknown tool and the available ones", async () => {
    const { kernel } = await kernelWith(add);
    expect(await kernel.execute({ name: "sub", arguments: {} })).toEqual({ output: "unknown tool: sub. Available tools: add", isError: true });
  });

  it("lists every failing path of invalid arguments", async () => {
    const { kernel } = await kernelWith(add);
    expect(await kernel.execute({ name: "add", arguments: { a: "2" } })).toEqual({
      output: "invalid arguments for add:\n- (arguments): must have required properties b\n- /a: must be number",
      isError: true,
    });
  });

  it("lets the gate rewrite arguments (validated again) or answer in place of the tool", async () => {
    const { kernel, events } = await kernelWith(add);
    kernel.tools.setInterceptor((call) => (call.arguments.a === 1 ? { action: "rewrite", arguments: { a: 10, b: 20 } } : undefined));
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "30" });
    expect(events.find((event) => event.type === "tool.called")).toMatchObject({ arguments: { a: 10, b: 20 } });
    kernel.tools.setInterceptor(() => ({ action: "rewrite", arguments: { a: "x" } }));
    expect((await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).output).toMatch(/^invalid arguments for add:/);
    kernel.tools.setInterceptor(() => ({ action: "answer", result: { output: "cached" } }));
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "cached" });
    kernel.tools.setInterceptor(null);
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "2" });
  });

  it("turns a thrown error into an error result", async () => {
    const broken = defineTool({
      name: "broken",
      description: "Always fails",
      input: Type.Object({}),
      execute: () => {
        throw new Error("disk on fire");
      },
    });
    const { kernel } = await kernelWith(broken);
    expect(await kernel.execute({ name: "broken", arguments: {} })).toEqual({ output: "broken failed: disk on fire", isError: true });
  });

  it("stops a call at its time limit even when the tool ignores its signal", async () => {
    let sawAbort = false;
    const stuck = defineTool({
      name: "stuck",
      description: "Never answers",
      input: Type.Object({}),
      timeoutMs: 50,
      execute: (_args, ctx) =>
        new Promise(() => {
          ctx.signal.addEventListener("abort", () => (sawAbort = true));
        }),
    });
    const { kernel } = await kernelWith(stuck);
    expect(await kernel.execute({ name: "stuck", arguments: {} })).toEqual({
      output: "stuck timed out after 50 ms",
      isError: true,
      metadata: { timedOut: true },
    });
    expect(sawAbort).toBe(true);
  });

  it("honours the caller's AbortSignal", async () => {
    const slow = defineTool({
      name: "slow",
      description: "Waits for its signal",
      input: Type.Object({}),
      execute: (_args, ctx) => new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ output: "late" }))),
    });
    const { kernel } = await kernelWith(slow);
    const controller = new AbortController();
    const running = kernel.execute({ name: "slow", arguments: {} }, { signal: controller.signal });
    controller.abort();
    expect(await running).toEqual({ output: "slow was aborted", isError: true, metadata: { aborted: true } });
  });

  it("gives the tool the caller's abort reason, and lets go of the caller's signal when the call is over", async () => {
    let reason: unknown;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const waits = defineTool({
      name: "waits",
      description: "Waits for its signal",
      input: Type.Object({}),
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal.addEventListener("abort", () => ((reason = ctx.signal.reason), resolve({ output: "late" })));
          started();
        }),
    });
    const { kernel } = await kernelWith(add, waits);
    const turn = new AbortController();
    // A turn's signal serves many calls: none may leave a listener behind on it.
    for (let i = 0; i < 20; i++) expect(await kernel.execute({ name: "add", arguments: { a: i, b: 1 } }, { signal: turn.signal })).toEqual({ output: String(i + 1) });
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
    const call = kernel.execute({ name: "waits", arguments: {} }, { signal: turn.signal });
    await running;
    turn.abort(new Error("user stopped"));
    expect(await call).toEqual({ output: "waits was aborted", isError: true, metadata: { aborted: true } });
    expect(reason).toEqual(new Error("user stopped"));
    expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
  });

  it("passes results through afterToolCall and reports progress", async () => {
    const progressive = defineTool({
      name: "progressive",
      description: "Reports progress",
      input: Type.Object({}),
      execute: (_args, ctx) => {
        ctx.onProgress({ progress: 1, total: 2, message: "half" });
        return { output: "secret token abc" };
      },
    });
    const { kernel, events } = await kernelWith(progressive);
    await kernel.use(
      definePlugin({
        meta: { name: "redact", version: "1.0.0", api: PLUGIN_API_VERSION },
        setup(api) {
          api.hooks.afterToolCall.tap((result) => ({ ...result, output: result.output.replace(/abc/, "[redacted]") }));
        },
      }),
    );
    expect(await kernel.execute({ id: "p", name: "progressive", arguments: {} })).toEqual({ output: "secret token [redacted]" });
    expect(events.find((event) => event.type === "tool.progress")).toEqual({
      type: "tool.progress",
      callId: "p",
      name: "progressive",
      progress: { progress: 1, total: 2, message: "half" },
    });
  });

  it("takes a plugin's tools and taps back out when its handle closes", async () => {
    const { kernel } = await kernelWith();
    const handle = await kernel.use(
      definePlugin({
        meta: { name: "pack", version: "1.0.0", api: PLUGIN_API_VERSION },
        setup(api) {
          api.hooks.tools.tap((tools) => void tools.add(add));
          api.hooks.beforeToolCall.tap(() => ({ action: "deny", reason: "pack says no" }));
        },
      }),
    );
    expect(kernel.tools.list().map((t) => [t.name, t.source])).toEqual([["add", { kind: "pack", id: "pack" }]]);
    expect((await kernel.execute({ name: "add", arguments: { a: 1, b: 2 } })).output).toBe("tool call blocked: pack says no");
    await handle.close();
    expect(kernel.tools.list()).toEqual([]);
    expect(kernel.plugins()).toEqual([]);
  });
});
