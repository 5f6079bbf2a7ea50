import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, Stage, deadlinePassed, defineTool, definePlugin, type FeedbackEvent, type Tool, type ToolVerdict } from "@weft/sdk";
import { createKernel } from "./kernel.js";
import { add } from "./test-fixtures/add-tool.js";

async function kernelWith(...tools: Tool[]) {
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

  it("asks the interceptor as the first POLICY gate: after earlier stages, before POLICY and later ones", async () => {
    const { kernel } = await kernelWith(add);
    const order: string[] = [];
    let early: "deny" | undefined;
    await kernel.use(
      definePlugin({
        meta: { name: "gates", version: "1.0.0", api: PLUGIN_API_VERSION },
        setup(api) {
          api.hooks.beforeToolCall.tap({ stage: Stage.AUDIT }, () => void order.push("audit"));
          api.hooks.beforeToolCall.tap({ stage: Stage.POLICY }, () => void order.push("policy"));
          api.hooks.beforeToolCall.tap({ stage: Stage.POLICY - 1 }, () => {
            order.push("early");
            return early && { action: early, reason: "too early" };
          });
        },
      }),
    );
    let verdict: ToolVerdict | undefined;
    kernel.tools.setInterceptor(() => {
      order.push("interceptor");
      return verdict;
    });
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "2" });
    expect(order).toEqual(["early", "interceptor", "policy", "audit"]);
    order.length = 0;
    verdict = { action: "deny", reason: "interceptor says no" };
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "tool call blocked: interceptor says no", isError: true });
    expect(order).toEqual(["early", "interceptor"]);
    order.length = 0;
    early = "deny";
    expect(await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "tool call blocked: too early", isError: true });
    expect(order).toEqual(["early"]);
  });

  it("skips the gates and result taps of a closed plugin, the interceptor still asked", async () => {
    const { kernel, events } = await kernelWith(add);
    const seen: string[] = [];
    const handle = await kernel.use(
      definePlugin({
        meta: { name: "closing", version: "1.0.0", api: PLUGIN_API_VERSION },
        setup(api) {
          api.hooks.beforeToolCall.tap({ stage: Stage.POLICY - 1 }, () => ({ action: "deny", reason: "early gate" }));
          api.hooks.beforeToolCall.tap(() => ({ action: "deny", reason: "late gate" }));
          api.hooks.afterToolCall.tap((result) => ({ ...result, output: `${result.output}!` }));
          api.hooks.feedback.tap((event) => void seen.push(event.type));
        },
      }),
    );
    expect((await kernel.execute({ name: "add", arguments: { a: 1, b: 1 } })).output).toBe("tool call blocked: early gate!");
    await handle.close();
    events.length = 0;
    expect(await kernel.execute({ id: "c", name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "2" });
    kernel.tools.setInterceptor(() => ({ action: "answer", result: { output: "from the interceptor" } }));
    expect(await kernel.execute({ id: "d", name: "add", arguments: { a: 1, b: 1 } })).toEqual({ output: "from the interceptor" });
    expect(seen).toEqual(["tool.called", "tool.returned"]);
    expect(events.map((event) => `${event.type} ${"callId" in event ? event.callId : ""}`)).toEqual(["tool.called c", "tool.returned c", "tool.called d", "tool.returned d"]);
  });

  it("takes plain text from a tool as its output, and gives the tool its deadline", async () => {
    let deadline: number | undefined;
    const plain: Tool = {
      name: "plain",
      description: "Answers with a string",
      inputSchema: { type: "object" },
      timeoutMs: 60_000,
      execute: async (_args, ctx) => {
        deadline = ctx.deadline;
        return "just text" as never;
      },
    };
    const typed = defineTool({ name: "typed", description: "Answers with a string", input: Type.Object({}), execute: () => "typed text" });
    const { kernel } = await kernelWith(plain, typed);
    const before = Date.now();
    expect(await kernel.execute({ name: "plain", arguments: {} })).toEqual({ output: "just text" });
    expect(deadline).toBeGreaterThanOrEqual(before + 60_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 60_000);
    expect(await kernel.execute({ name: "typed", arguments: {} })).toEqual({ output: "typed text" });
  });

  it("lets a tool that stops at its deadline report itself, with the deadline as the abort reason", async () => {
    const selfReporting = defineTool({
      name: "self_reporting",
      description: "Reports its own timeout",
      input: Type.Object({}),
      timeoutMs: 30,
      execute: (_args, ctx) =>
        new Promise((resolve) =>
          ctx.signal.addEventListener("abort", () => resolve({ output: `stopped: ${deadlinePassed(ctx.signal)} ${String(ctx.signal.reason.message)}`, isError: true })),
        ),
    });
    const { kernel } = await kernelWith(selfReporting);
    expect(await kernel.execute({ name: "self_reporting", arguments: {} })).toEqual({ output: "stopped: true self_reporting timed out after 30 ms", isError: true });
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

  it("starts the tool before execute returns when no gate is tapped, and once the gate has spoken otherwise", async () => {
    let started = 0;
    const probe = defineTool({
      name: "probe",
      description: "Counts its starts",
      input: Type.Object({}),
      execute: () => ({ output: `start ${++started}` }),
    });
    const { kernel } = await kernelWith(probe);
    const ungated = kernel.execute({ name: "probe", arguments: {} });
    expect(started).toBe(1);
    expect(await ungated).toEqual({ output: "start 1" });
    kernel.tools.setInterceptor(() => undefined);
    const gated = kernel.execute({ name: "probe", arguments: {} });
    expect(started).toBe(1);
    expect(await gated).toEqual({ output: "start 2" });
  });

  it("treats a time limit beyond setTimeout's range as none (a tool that times itself)", async () => {
    const selfTimed = (name: string, timeoutMs: number) =>
      defineTool({
        name,
        description: "Answers after a moment",
        input: Type.Object({}),
        timeoutMs,
        execute: () => new Promise((resolve) => setTimeout(() => resolve({ output: "done" }), 20)),
      });
    const { kernel } = await kernelWith(selfTimed("forever", Number.POSITIVE_INFINITY), selfTimed("longest", 2 ** 31 - 1));
    expect(await kernel.execute({ name: "forever", arguments: {} })).toEqual({ output: "done" });
    expect(await kernel.execute({ name: "longest", arguments: {} })).toEqual({ output: "done" });
  });

  it("sets a deadline timer for a limited call only", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    const counting = (name: string, timeoutMs: number) =>
      defineTool({ name, description: "Counts the timers while it runs", input: Type.Object({}), timeoutMs, execute: () => ({ output: String(timers()) }) });
    const { kernel } = await kernelWith(counting("limited", 60_000), counting("self_timed", 2 ** 31 - 1));
    const before = timers();
    expect(await kernel.execute({ name: "limited", arguments: {} })).toEqual({ output: String(before + 1) });
    expect(await kernel.execute({ name: "self_timed", arguments: {} })).toEqual({ output: String(before) });
  });

  it("runs a call whose caller already aborted with its signal aborted, answers aborted, and leaves no timer behind", async () => {
    const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;
    let seen: { aborted: boolean; reason: unknown } | undefined;
    const tells = defineTool({
      name: "tells",
      description: "Tells its source the call is off",
      input: Type.Object({}),
      timeoutMs: 60_000,
      execute: (_args, ctx) => {
        seen = { aborted: ctx.signal.aborted, reason: ctx.signal.reason };
        return { output: "told" };
      },
    });
    const { kernel } = await kernelWith(tells);
    const before = timers();
    const gone = new AbortController();
    gone.abort(new Error("user left"));
    expect(await kernel.execute({ name: "tells", arguments: {} }, { signal: gone.signal })).toEqual({ output: "tells was aborted", isError: true, metadata: { aborted: true } });
    expect(seen).toEqual({ aborted: true, reason: new Error("user left") });
    expect(timers()).toBe(before);
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
          ctx.signal.addEventListener("abort", () => {
            reason = ctx.signal.reason;
            resolve({ output: "late" });
          });
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
