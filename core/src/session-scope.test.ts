import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, Stage, defineTool, definePlugin } from "@weft/sdk";
import type { HookContext, PendingAnswer, Plugin, PluginApi, Registrable, Tool } from "@weft/sdk";
import { defined, scriptedModel } from "@weft/sdk/testing";
import { createAgent } from "./agent/agent.js";
import { coreBuiltins } from "./builtins/core-builtins.js";
import { testKernels } from "./test-fixtures/test-kernels.js";

const newKernel = testKernels(afterEach);

function pack(name: string, setup: Plugin["setup"]): Plugin {
  return definePlugin({ meta: { name, version: "1.0.0", api: PLUGIN_API_VERSION }, setup });
}

const echo = (name: string, output = name) =>
  defineTool({ name, description: `the ${name} tool`, input: Type.Object({}), execute: () => ({ output }) }) as Tool;

/** A skill collection in miniature: a tool and a prompt section for the session it is registered on. */
function catalog(name: string): Registrable {
  return {
    register(api) {
      api.tools.add(echo(`${name}_skill`));
      api.hooks.prompt.tap((sections) => [...sections, `# Skills of ${name}`]);
    },
  };
}

describe("sessions on one kernel", () => {
  it("keep two agents' todos, session tools, skills catalogs and suspensions apart", async () => {
    const kernel = newKernel();
    await kernel.use(coreBuiltins);
    const todo = (content: string) => ({ toolCalls: [{ name: "todowrite", arguments: { todos: [{ content, status: "pending" }] } }] });
    const ask = { toolCalls: [{ name: "question", arguments: { question: "which file?" } }] };
    const modelA = scriptedModel([todo("A's step"), ask, "A done"]);
    const modelB = scriptedModel([todo("B's step"), "B done"]);
    const a = createAgent({ model: modelA, kernel, name: "a" });
    const b = createAgent({ model: modelB, kernel, name: "b" });
    await a.startSession({ prompt: "You are A.", tools: [echo("only_a")], skills: catalog("a") });
    await b.startSession({ prompt: "You are B.", skills: catalog("b") });

    expect((await a.process("plan")).status).toBe("pending");
    await b.process("plan");

    expect(a.todos()).toEqual([{ content: "A's step", status: "pending" }]);
    expect(b.todos()).toEqual([{ content: "B's step", status: "pending" }]);
    expect((await a.pending())?.message).toBe("which file?");
    expect(await b.pending()).toBeUndefined();
    const names = (model: typeof modelA) => model.requests[0]?.tools?.map((tool) => tool.name);
    expect(names(modelA)).toEqual(["a_skill", "only_a", "question", "todowrite"]);
    expect(names(modelB)).toEqual(["b_skill", "question", "todowrite"]);
    expect(modelA.requests[0]?.messages[0]).toEqual({ role: "system", content: "You are A.\n\n# Skills of a" });
    expect(modelB.requests[0]?.messages[0]).toEqual({ role: "system", content: "You are B.\n\n# Skills of b" });
    // Nothing of either session is on the kernel.
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["question", "todowrite"]);
    expect(await kernel.buildPrompt("base")).toBe("base");
    expect(await kernel.execute({ name: "only_a", arguments: {} })).toMatchObject({ isError: true, output: "unknown tool: only_a. Available tools: question, todowrite" });

    await a.resume({ action: "accept", content: "a.txt" });
    expect(a.messages().at(-2)).toMatchObject({ role: "tool", toolName: "question", content: "a.txt" });
  });

  it("gives a session a subset of the kernel's tools, its own tools shadowing the kernel's", async () => {
    const kernel = newKernel();
    await kernel.use(pack("tools", (api) => {
      for (const name of ["alpha", "beta", "gamma"]) api.tools.add(echo(name));
    }));
    const only = await kernel.session({ tools: { only: ["alpha", "gamma"] } });
    const exclude = await kernel.session({ tools: { exclude: ["alpha"] } });
    exclude.tools.add(echo("gamma", "the session's gamma"));
    expect(only.tools.list().map((tool) => tool.name)).toEqual(["alpha", "gamma"]);
    expect(exclude.tools.list().map((tool) => [tool.name, tool.source.id])).toEqual([
      ["beta", "tools"],
      ["gamma", `session:${exclude.id}`],
    ]);
    expect(await only.execute({ name: "beta", arguments: {} })).toEqual({ output: "unknown tool: beta. Available tools: alpha, gamma", isError: true });
    expect(await exclude.execute({ name: "gamma", arguments: {} })).toEqual({ output: "the session's gamma" });
    const hide = exclude.tools.hide(["beta"]);
    expect(exclude.tools.list().map((tool) => tool.name)).toEqual(["gamma"]);
    await hide();
    expect(exclude.tools.list().map((tool) => tool.name)).toEqual(["beta", "gamma"]);
    await exclude.dispose();
    expect(await exclude.execute({ name: "gamma", arguments: {} })).toEqual({
      output: `gamma could not run: session ${exclude.id} is closed`,
      isError: true,
      metadata: { closed: true },
    });
    expect(await kernel.execute({ name: "gamma", arguments: {} })).toEqual({ output: "gamma" });
  });

  it("takes back a closed session's taps, tools and services, and gives hooks their context", async () => {
    const kernel = newKernel();
    const contexts: HookContext[] = [];
    await kernel.use(
      pack("@acme/observer", (api) => {
        api.hooks.prompt.tap((sections, context) => {
          contexts.push(context);
          return sections;
        });
        api.hooks.beforeToolCall.tap((_call, context) => void contexts.push(context));
      }),
    );
    const model = scriptedModel([{ toolCalls: [{ name: "mine", arguments: {} }] }, "done", "again"]);
    const agent = createAgent({ model, kernel, name: "helper", sessionId: "s1" });
    await agent.startSession({ tools: [echo("mine")] });
    await agent.process("go");
    expect(contexts).toEqual([
      { sessionId: "s1", agent: "helper", turn: 1, caller: "session:s1" },
      { sessionId: "s1", agent: "helper", turn: 1, caller: "session:s1" },
      { sessionId: "s1", agent: "helper", turn: 1, caller: "session:s1" },
    ]);
    const session = await kernel.session({ id: "s2" });
    let tapped = 0;
    session.hooks.prompt.tap((sections) => {
      tapped++;
      return [...sections, "session section"];
    });
    session.provide("todos", { get: () => [], set: () => {} });
    expect(await session.buildPrompt("base")).toBe("base\n\nsession section");
    await session.dispose();
    expect(await session.buildPrompt("base")).toBe("base");
    expect(tapped).toBe(1);
    const next = await kernel.session();
    expect(next.has("todos")).toBe(false);
    expect(await kernel.buildPrompt("base")).toBe("base");
    expect(contexts.at(-1)).toEqual({ turn: 0, caller: "app" });
  });

  it("says whether an event emitted now reaches an observer: a plugin's the kernel's taps, a session's its own and the kernel's", async () => {
    const kernel = newKernel();
    let plugin: PluginApi | undefined;
    await kernel.use(
      pack("@acme/reporter", (api) => {
        plugin = api;
      }),
    );
    const session = await kernel.session({ id: "s1" });
    const observed = () => [plugin?.observed(), session.observed()];
    expect(observed()).toEqual([false, false]);
    const other = await kernel.session({ id: "s2" });
    other.hooks.feedback.tap(() => {});
    expect(observed()).toEqual([false, false]);
    session.hooks.feedback.tap(() => {});
    expect(observed()).toEqual([false, true]);
    await session.dispose();
    expect(session.observed()).toBe(false);
    kernel.hooks.feedback.tap(() => {});
    expect([plugin?.observed(), (await kernel.session({ id: "s3" })).observed()]).toEqual([true, true]);
  });

  it("counts an observer tapped with `active` only while it is active, and tells it only then", async () => {
    const kernel = newKernel();
    const session = await kernel.session({ id: "s1" });
    let reading = false;
    const heard: string[] = [];
    session.hooks.feedback.tap({ active: () => reading }, (event) => void heard.push(event.type));
    expect(session.observed()).toBe(false);
    session.emit({ type: "text.delta", delta: "unheard" });
    reading = true;
    expect(session.observed()).toBe(true);
    session.emit({ type: "text.interim", text: "heard" });
    reading = false;
    // Another observer makes the session observed; the inactive one still hears nothing.
    session.hooks.feedback.tap(() => {});
    expect(session.observed()).toBe(true);
    session.emit({ type: "text.delta", delta: "unheard too" });
    expect(heard).toEqual(["text.interim"]);
  });
});

describe("one door", () => {
  it("no public handle runs a tool a gate denies", async () => {
    const kernel = newKernel();
    let runs = 0;
    const guarded = defineTool({ name: "guarded", description: "Counts its runs", input: Type.Object({}), execute: () => ({ output: `run ${++runs}` }) });
    const seen: unknown[] = [];
    await kernel.use(pack("pack", (api) => void api.tools.add(guarded)));
    kernel.tools.setInterceptor((call) => {
      seen.push(call.tool);
      return { action: "deny", reason: "policy" };
    });
    const session = await kernel.session();
    const handles = [kernel.tools.get("guarded"), ...kernel.tools.list(), ...kernel.tools.registrations(), session.tools.get("guarded"), ...session.tools.list()];
    expect(await kernel.execute({ name: "guarded", arguments: {} })).toEqual({ output: "tool call blocked: policy", isError: true });
    expect(await session.execute({ name: "guarded", arguments: {} })).toEqual({ output: "tool call blocked: policy", isError: true });
    for (const handle of [...handles, ...seen]) expect(handle).not.toHaveProperty("execute");
    expect(runs).toBe(0);
  });

  it("runs the interceptor as the first POLICY tap of the gate, and replaces it when set again", async () => {
    const kernel = newKernel();
    const order: string[] = [];
    await kernel.use(
      pack("gates", (api) => {
        api.tools.add(echo("t"));
        api.hooks.beforeToolCall.tap({ stage: Stage.POLICY - 1 }, () => void order.push("early"));
        api.hooks.beforeToolCall.tap({ stage: Stage.POLICY }, () => void order.push("policy"));
      }),
    );
    kernel.tools.setInterceptor(() => void order.push("first interceptor"));
    kernel.tools.setInterceptor(() => void order.push("interceptor"));
    await kernel.execute({ name: "t", arguments: {} });
    kernel.tools.setInterceptor(null);
    await kernel.execute({ name: "t", arguments: {} });
    expect(order).toEqual(["early", "interceptor", "policy", "early", "policy"]);
  });
});

describe("hooks that fail loudly", () => {
  const broken = (hook: "beforeToolCall" | "afterToolCall" | "prompt" | "beforeModelCall" | "compact") =>
    pack("@acme/x", (api) => {
      api.tools.add(echo("t"));
      (api.hooks[hook].tap as (fn: () => never) => void)(() => {
        throw new Error("bad tap");
      });
    });

  it("turns a throwing gate or result tap into an error result naming the hook and the plugin; execute never rejects", async () => {
    for (const [hook, output] of [
      ["beforeToolCall", "tool call blocked: beforeToolCall tap of @acme/x failed: bad tap"],
      ["afterToolCall", "afterToolCall tap of @acme/x failed: bad tap"],
    ] as const) {
      const kernel = newKernel();
      await kernel.use(broken(hook));
      expect(await kernel.execute({ name: "t", arguments: {} })).toEqual({ output, isError: true });
    }
  });

  it("fails the turn with HOOK_FAILED when a prompt or beforeModelCall tap throws", async () => {
    for (const hook of ["prompt", "beforeModelCall"] as const) {
      const kernel = newKernel();
      await kernel.use(broken(hook));
      const agent = createAgent({ model: scriptedModel(["never"]), kernel });
      await expect(agent.process("hi")).rejects.toMatchObject({
        code: "HOOK_FAILED",
        hook,
        plugin: "@acme/x",
        message: `${hook} tap of @acme/x failed: bad tap`,
      });
    }
  });

  it("reports a throwing compact stage naming its plugin", async () => {
    const kernel = newKernel();
    await kernel.use(broken("compact"));
    const reasons: string[] = [];
    kernel.hooks.feedback.tap((event) => void (event.type === "compaction.failed" && reasons.push(event.reason)));
    const agent = createAgent({ model: scriptedModel([]), kernel });
    await agent.compact();
    expect(reasons).toEqual(["compact tap of @acme/x failed: bad tap"]);
  });

  it("refuses a service provided twice, naming both plugins, unless the second replaces it", async () => {
    const kernel = newKernel();
    const list = { get: () => [], set: () => {} };
    await kernel.use(pack("@acme/first", (api) => api.provide("todos", list)));
    await expect(kernel.use(pack("@acme/second", (api) => api.provide("todos", list)))).rejects.toMatchObject({
      code: "SERVICE_DUPLICATE",
      message:
        '@acme/second provides the "todos" service, which @acme/first already provides: enable only one of them, or provide it with { replaces: true } to replace it on purpose',
    });
    const replacement = { get: () => [{ content: "x", status: "pending" as const }], set: () => {} };
    const handle = await kernel.use(pack("@acme/third", (api) => api.provide("todos", replacement, { replaces: true })));
    const session = await kernel.session();
    expect(session.need("todos").get()).toEqual([{ content: "x", status: "pending" }]);
    await handle.close();
    expect(session.need("todos").get()).toEqual([]);
  });

  it("names each hook's kind on its facade", () => {
    const kernel = newKernel();
    const kinds = Object.fromEntries(Object.entries(kernel.hooks).map(([name, facade]) => [name, facade.kind]));
    expect(kinds).toEqual({
      providers: "series",
      tools: "series",
      prompt: "waterfall",
      beforeModelCall: "waterfall",
      beforeToolCall: "bail",
      afterToolCall: "waterfall",
      compact: "waterfall",
      prepareStep: "waterfall",
      stopWhen: "bail",
      feedback: "sync",
      close: "series",
    });
  });
});

describe("every answer reaches its source", () => {
  it("re-runs the tool with the host's decline, cancel or timeout in ctx.answer", async () => {
    const kernel = newKernel();
    const received: (PendingAnswer | undefined)[] = [];
    const asking = defineTool({
      name: "asking",
      description: "Records the answers it gets",
      input: Type.Object({}),
      execute: (_args, ctx) => {
        received.push(ctx.answer);
        return ctx.answer ? { output: `got ${ctx.answer.action}` } : { output: "waiting", pending: { kind: "elicitation", message: "fill in" } };
      },
    });
    const answers: (() => Promise<PendingAnswer>)[] = [
      async () => ({ action: "decline" }),
      async () => ({ action: "cancel" }),
      async () => Promise.reject(new Error("timed out")),
    ];
    const calls = { toolCalls: [0, 1, 2].map(() => ({ name: "asking", arguments: {} })) };
    const agent = createAgent({ model: scriptedModel([calls, "ok"]), kernel, waitFor: () => defined(answers.shift())(), parallelToolCalls: false, repeatLimit: 0 });
    await agent.startSession({ tools: [asking] });
    await agent.process("go");
    expect(received).toEqual([undefined, { action: "decline" }, undefined, { action: "cancel" }, undefined, { action: "cancel", reason: "timeout" }]);
  });
});
