import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { MaxIterationsError, PLUGIN_API_VERSION, defineTool, definePlugin, memoryLogger } from "@weft/sdk";
import type { FeedbackEvent, Kernel, Message, PluginApi, Registrable } from "@weft/sdk";
import { defined, scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent, type AgentEvent } from "./agent.js";
import { repeatedCallMessage } from "./loop-guard.js";
import type { SessionState } from "./session-state.js";
import { memorySessionStore, type SessionStore } from "./session-store.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";
import { add } from "../test-fixtures/add-tool.js";

const newKernel = testKernels(afterEach);

/** Records every feedback event the kernel carries. */
function record(kernel: Kernel): FeedbackEvent[] {
  const events: FeedbackEvent[] = [];
  kernel.hooks.feedback.tap((event) => void events.push(event));
  return events;
}

/** A promise with its resolver, for tools that wait on each other. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("agent loop", () => {
  it("runs tools until the model answers, over several turns", async () => {
    const kernel = newKernel();
    const model = scriptedModel([
      { text: "Let me add.", toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] },
      { toolCalls: [{ name: "add", arguments: { a: 5, b: 10 } }] },
      "2 + 3 + 10 = 15",
      "You asked for a sum.",
    ]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ prompt: "You are a calculator.", tools: [add] });

    const first = await agent.process("What is 2 + 3 + 10?");
    expect(first.status).toBe("done");
    expect(first.content).toBe("2 + 3 + 10 = 15");
    expect(first.metadata).toMatchObject({ iterations: 3, toolCalls: 2, stopReason: "end_turn" });

    const second = await agent.process("What did I ask?");
    expect(second.content).toBe("You asked for a sum.");
    expect(second.metadata).toMatchObject({ iterations: 1, toolCalls: 0 });

    const transcript = agent.messages();
    expect(transcript).toEqual([
      { role: "system", content: "You are a calculator." },
      { role: "user", content: "What is 2 + 3 + 10?" },
      expect.objectContaining({ role: "assistant", content: "Let me add.", toolCalls: [{ id: "call_1", name: "add", arguments: { a: 2, b: 3 } }] }),
      { role: "tool", toolCallId: "call_1", toolName: "add", content: "5" },
      expect.objectContaining({ role: "assistant", content: "", toolCalls: [{ id: "call_2", name: "add", arguments: { a: 5, b: 10 } }] }),
      { role: "tool", toolCallId: "call_2", toolName: "add", content: "15" },
      expect.objectContaining({ role: "assistant", content: "2 + 3 + 10 = 15" }),
      { role: "user", content: "What did I ask?" },
      expect.objectContaining({ role: "assistant", content: "You asked for a sum." }),
    ]);
    expect(wireProblems(transcript)).toEqual([]);
    expect(JSON.parse(JSON.stringify(transcript))).toEqual(transcript);
    // Every request carries the system prompt, the sorted tool list and the transcript so far.
    expect(model.requests[1]?.messages).toEqual(transcript.slice(0, 4));
    expect(model.requests[0]?.tools).toEqual([{ name: "add", description: "Add two numbers", inputSchema: add.inputSchema }]);
  });

  it("sums tokens over every model call and keeps the final call's apart", async () => {
    const kernel = newKernel();
    const model = scriptedModel([
      { toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }], stats: { promptTokens: 100, outputTokens: 20, cacheReadTokens: 30 } },
      { text: "2", stats: { promptTokens: 150, outputTokens: 10, cacheWriteTokens: 5, reasoningTokens: 4 }, stopReason: "stop" },
    ]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [add] });
    const { metadata } = await agent.process("1 + 1?");
    expect(metadata).toEqual({
      iterations: 2,
      toolCalls: 1,
      usage: { promptTokens: 250, outputTokens: 30, totalTokens: 280, cacheReadTokens: 30, cacheWriteTokens: 5, reasoningTokens: 4 },
      finalUsage: { promptTokens: 150, outputTokens: 10, totalTokens: 160, cacheReadTokens: 0, cacheWriteTokens: 5, reasoningTokens: 4 },
      stopReason: "stop",
      timings: { modelMs: expect.any(Number), toolMs: expect.any(Number), totalMs: expect.any(Number) },
    });
  });

  it("runs the calls of one reply concurrently and returns results in call order", async () => {
    const kernel = newKernel();
    const bothStarted = deferred();
    const slowDone = deferred();
    let started = 0;
    const arrive = () => ++started === 2 && bothStarted.resolve();
    // `slow` can only finish after `fast` has started and finished: sequential execution would never end.
    const slow = defineTool({
      name: "slow",
      description: "Finishes last",
      input: Type.Object({}),
      execute: async () => {
        arrive();
        await bothStarted.promise;
        await slowDone.promise;
        return { output: "slow result" };
      },
    });
    const fast = defineTool({
      name: "fast",
      description: "Finishes first",
      input: Type.Object({}),
      execute: async () => {
        arrive();
        await bothStarted.promise;
        setImmediate(() => slowDone.resolve());
        return { output: "fast result" };
      },
    });
    const model = scriptedModel([{ toolCalls: [{ name: "slow", arguments: {} }, { name: "fast", arguments: {} }] }, "done"]);
    const agent = createAgent({ model, kernel });
    const events = record(kernel);
    await agent.startSession({ tools: [slow, fast] });
    await agent.process("go");
    const returned = events.filter((event) => event.type === "tool.returned").map((event) => event.name);
    expect(returned).toEqual(["fast", "slow"]);
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "slow", content: "slow result" },
      { role: "tool", toolCallId: "call_2", toolName: "fast", content: "fast result" },
    ]);
  });

  it("runs calls one after another with parallelToolCalls: false", async () => {
    const kernel = newKernel();
    const order: string[] = [];
    const step = (name: string) =>
      defineTool({
        name,
        description: name,
        input: Type.Object({}),
        execute: async () => {
          order.push(`${name} start`);
          await new Promise((resolve) => setImmediate(resolve));
          order.push(`${name} end`);
          return { output: name };
        },
      });
    const model = scriptedModel([{ toolCalls: [{ name: "one", arguments: {} }, { name: "two", arguments: {} }] }, "done"]);
    const agent = createAgent({ model, kernel, parallelToolCalls: false });
    await agent.startSession({ tools: [step("one"), step("two")] });
    await agent.process("go");
    expect(order).toEqual(["one start", "one end", "two start", "two end"]);
  });

  it("reports a failing tool to the model as its error text and carries on", async () => {
    const kernel = newKernel();
    const broken = defineTool({
      name: "broken",
      description: "Always fails",
      input: Type.Object({}),
      execute: () => {
        throw new Error("disk full");
      },
    });
    const model = scriptedModel([
      { toolCalls: [{ name: "broken", arguments: {} }, { name: "add", arguments: { a: "x", b: 1 } }, { name: "missing", arguments: {} }] },
      "Something is wrong with the disk.",
    ]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [broken, add] });
    const response = await agent.process("save it");
    expect(response).toMatchObject({ status: "done", content: "Something is wrong with the disk." });
    expect(model.requests[1]?.messages.slice(-3)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "broken", content: "broken failed: disk full", isError: true },
      { role: "tool", toolCallId: "call_2", toolName: "add", content: "invalid arguments for add:\n- /a: must be number", isError: true },
      { role: "tool", toolCallId: "call_3", toolName: "missing", content: "unknown tool: missing. Available tools: add, broken", isError: true },
    ]);
  });

  it("stops at maxIterations with MaxIterationsError, keeping a consistent transcript", async () => {
    const kernel = newKernel();
    const model = scriptedModel([
      { text: "first", toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] },
      { text: "second", toolCalls: [{ name: "add", arguments: { a: 2, b: 2 } }] },
      { toolCalls: [{ name: "add", arguments: { a: 3, b: 3 } }] },
    ]);
    const agent = createAgent({ model, kernel, maxIterations: 2 });
    const events = record(kernel);
    await agent.startSession({ tools: [add] });
    const error = await agent.process("count").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MaxIterationsError);
    expect(error).toMatchObject({ code: "MAX_ITERATIONS", iterations: 2 });
    expect(model.remaining).toBe(1);
    const transcript = agent.messages();
    expect(transcript.at(-1)).toEqual({ role: "tool", toolCallId: "call_2", toolName: "add", content: "4" });
    expect(wireProblems(transcript)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ type: "turn.finished", status: "incomplete", metadata: { iterations: 2, toolCalls: 2 } });
  });

  it("ends the stream of a turn at maxIterations with an incomplete response", async () => {
    const kernel = newKernel();
    const model = scriptedModel([{ text: "thinking", toolCalls: [{ name: "add", arguments: { a: 1, b: 1 } }] }]);
    const agent = createAgent({ model, kernel, maxIterations: 1 });
    await agent.startSession({ tools: [add] });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream("count")) events.push(event);
    expect(events.at(-1)).toEqual({
      type: "response",
      response: { content: "thinking", status: "incomplete", reason: "max-iterations", metadata: expect.objectContaining({ iterations: 1 }) },
    });
  });

  it("answers the same call repeated in a row with an error, and ends the turn at the second breach", async () => {
    const kernel = newKernel();
    let runs = 0;
    const lookup = defineTool({
      name: "lookup",
      description: "Look something up",
      input: Type.Object({ q: Type.String(), page: Type.Optional(Type.Number()) }),
      execute: () => ({ output: `result ${++runs}` }),
    });
    const again = { toolCalls: [{ name: "lookup", arguments: { q: "x", page: 1 } }] };
    // Key order differs: the guard compares arguments, not their JSON text.
    const reordered = { toolCalls: [{ name: "lookup", arguments: { page: 1, q: "x" } }] };
    const model = scriptedModel([again, reordered, again, reordered, "never sent"]);
    const agent = createAgent({ model, kernel });
    const events = record(kernel);
    await agent.startSession({ tools: [lookup] });
    const response = await agent.process("find x");
    expect(response).toMatchObject({ status: "incomplete", reason: "repeated-tool-call" });
    expect(runs).toBe(2);
    expect(model.remaining).toBe(1);
    const repeated = events.filter((event) => event.type === "tool.repeated");
    expect(repeated).toEqual([
      { type: "tool.repeated", callId: "call_3", name: "lookup", arguments: { q: "x", page: 1 }, count: 3 },
      { type: "tool.repeated", callId: "call_4", name: "lookup", arguments: { page: 1, q: "x" }, count: 4 },
    ]);
    const transcript = agent.messages();
    expect(transcript.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      "result 1",
      "result 2",
      "repeated call: you have called lookup with these exact arguments 3 times in a row, and the result will not change. Do not call it again with the same arguments: use the result you already have, change the arguments, or give your answer.",
      repeatedCallMessage("lookup", 4),
    ]);
    expect(wireProblems(transcript)).toEqual([]);
  });

  it("emits events in order with their payloads, and streams the same ones", async () => {
    const kernel = newKernel();
    const model = scriptedModel([
      { text: "Adding.", toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }], stats: { promptTokens: 40, outputTokens: 8 } },
      { text: "It is 3", stats: { promptTokens: 60, outputTokens: 4 } },
    ], { contextWindow: 100_000 });
    const agent = createAgent({ model, kernel });
    const observed = record(kernel);
    await agent.startSession({ prompt: "Be brief.", tools: [add], sessionId: "s-events" });
    const streamed: AgentEvent[] = [];
    for await (const event of agent.stream("1 + 2?")) streamed.push(event);

    expect(observed.map((event) => event.type)).toEqual([
      "session.started",
      "model.request",
      "text.delta",
      "model.response",
      "text.interim",
      "tool.called",
      "tool.returned",
      "model.request",
      "text.delta",
      "text.delta",
      "text.delta",
      "model.response",
      "turn.finished",
    ]);
    expect(streamed.slice(0, -1)).toEqual(observed.slice(1));
    const [started, request, , response, interim, called, returned] = observed;
    expect(started).toEqual({ type: "session.started", sessionId: "s-events" });
    expect(request).toEqual({ type: "model.request", model: "scripted/test-model", messages: 2, tools: 1 });
    expect(response).toEqual({
      type: "model.response",
      model: "scripted/test-model",
      stats: { promptTokens: 40, outputTokens: 8, totalTokens: 48, cacheReadTokens: 0, cacheWriteTokens: 0 },
      durationMs: expect.any(Number),
      stopReason: "tool_use",
    });
    expect(interim).toEqual({ type: "text.interim", text: "Adding." });
    expect(called).toEqual({ type: "tool.called", callId: "call_1", name: "add", arguments: { a: 1, b: 2 } });
    expect(returned).toEqual({ type: "tool.returned", callId: "call_1", name: "add", result: { output: "3" }, isError: false, elapsedMs: expect.any(Number) });
    expect(observed.filter((event) => event.type === "text.delta").map((event) => event.delta).join("")).toBe("Adding.It is 3");
    expect(observed.at(-1)).toMatchObject({ type: "turn.finished", status: "done", metadata: { iterations: 2, toolCalls: 1, usage: { totalTokens: 112 } } });
    expect(streamed.at(-1)).toMatchObject({ type: "response", response: { status: "done", content: "It is 3" } });
  });

  it("is observed during a turn only when someone observes it: a stream, or a feedback tap", async () => {
    const kernel = newKernel();
    // A tool that asks what a plugin of the session would ask before it builds an event.
    let session: PluginApi | undefined;
    const seen: boolean[] = [];
    const probe = defineTool({
      name: "probe",
      description: "Probe",
      input: Type.Object({}),
      execute: () => {
        seen.push(session?.observed() ?? true);
        return { output: "ok" };
      },
    });
    const turn = () => [{ toolCalls: [{ name: "probe", arguments: {} }] }, "Done."];
    const model = scriptedModel([...turn(), ...turn(), ...turn()]);
    const agent = createAgent({ model, kernel });
    const captured: Registrable = {
      register: (api) => {
        session = api;
      },
    };
    await agent.startSession({ tools: [probe], skills: captured });

    await agent.process("Probe.");
    expect(seen).toEqual([false]);
    expect(session?.observed()).toBe(false);

    const streamed: string[] = [];
    for await (const event of agent.stream("Probe.")) streamed.push(event.type);
    expect(seen).toEqual([false, true]);
    // A stream gets every event of its turn, with nobody else observing.
    expect(streamed).toEqual([
      "model.request",
      "model.response",
      "tool.called",
      "tool.returned",
      "model.request",
      "text.delta",
      "model.response",
      "turn.finished",
      "response",
    ]);
    expect(session?.observed()).toBe(false);

    const observed = record(kernel);
    await agent.process("Probe.");
    expect(seen).toEqual([false, true, true]);
    expect(observed.map((event) => event.type)).toContain("tool.returned");
  });

  it("keeps running when a feedback observer throws", async () => {
    const logger = memoryLogger();
    const kernel = newKernel({ logger });
    kernel.hooks.feedback.tap(() => {
      throw new Error("observer broke");
    });
    const agent = createAgent({ model: scriptedModel(["fine"]), kernel });
    const response = await agent.process("hi");
    expect(response.content).toBe("fine");
    expect(logger.lines.some((line) => line.level === "error" && line.message === "feedback observer of app failed: observer broke")).toBe(true);
  });

  it("refuses a second turn while one runs", async () => {
    const kernel = newKernel();
    const agent = createAgent({ model: scriptedModel([{ text: "slow", delayMs: 50 }]), kernel });
    const first = agent.process("one");
    await expect(agent.process("two")).rejects.toMatchObject({ code: "AGENT_BUSY" });
    await expect(first).resolves.toMatchObject({ content: "slow" });
  });
});

describe("agent sessions", () => {
  /** A skill set as the skills plugin would register it: a tool and a catalog section. */
  function skills(name: string): Registrable {
    return {
      register(api) {
        api.tools.add(
          defineTool({ name: `${name}_skill`, description: `Load the ${name} skill`, input: Type.Object({}), execute: () => ({ output: `${name} instructions` }) }),
        );
        api.hooks.prompt.tap((sections) => [...sections, `Skills: ${name}`]);
      },
    };
  }

  it("equips a session with its prompt, tools and skills, and takes them back when it ends", async () => {
    const kernel = newKernel();
    await kernel.use(definePlugin({ meta: { name: "base", version: "1.0.0", api: PLUGIN_API_VERSION }, setup: (api) => void api.tools.add(add) }));
    const model = scriptedModel(["first", "second"]);
    const agent = createAgent({ model, kernel });
    const events = record(kernel);
    const extra = defineTool({ name: "extra", description: "Session tool", input: Type.Object({}), execute: () => ({ output: "x" }) });

    await agent.startSession({ prompt: "You write poems.", tools: [extra], skills: skills("poetry"), sessionId: "poems" });
    await agent.process("a poem");
    expect(model.requests[0]?.messages[0]).toEqual({ role: "system", content: "You write poems.\n\nSkills: poetry" });
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toEqual(["add", "extra", "poetry_skill"]);

    await agent.startSession({ prompt: "You do sums.", sessionId: "sums" });
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["add"]);
    await agent.process("1 + 1");
    expect(model.requests[1]?.messages).toEqual([
      { role: "system", content: "You do sums." },
      { role: "user", content: "1 + 1" },
    ]);
    expect(model.requests[1]?.tools?.map((tool) => tool.name)).toEqual(["add"]);
    await agent.close();
    expect(agent.sessionId).toBeUndefined();
    expect(events.filter((event) => event.type.startsWith("session.")).map((event) => [event.type, (event as { sessionId: string }).sessionId])).toEqual([
      ["session.started", "poems"],
      ["session.closed", "poems"],
      ["session.started", "sums"],
      ["session.closed", "sums"],
    ]);
  });

  it("resetSession keeps the prompt and drops the rest", async () => {
    const kernel = newKernel();
    const model = scriptedModel(["one", "two"]);
    const agent = createAgent({ model, kernel });
    const events = record(kernel);
    await agent.startSession({ prompt: "Stay short." });
    await agent.process("first");
    await agent.resetSession();
    expect(agent.messages()).toEqual([{ role: "system", content: "Stay short." }]);
    await agent.process("second");
    expect(model.requests[1]?.messages).toEqual([
      { role: "system", content: "Stay short." },
      { role: "user", content: "second" },
    ]);
    expect(events.some((event) => event.type === "session.reset")).toBe(true);
  });

  it("saves every turn: the built-in store keeps a copy, an application's own store gets one it may keep", async () => {
    const kept: SessionState[] = [];
    const own: SessionStore = { get: () => undefined, save: (_id, state) => void kept.push(state) };
    const builtin = memorySessionStore();
    for (const store of [own, builtin]) {
      const agent = createAgent({ model: scriptedModel(["one", "two"]), kernel: newKernel(), store, sessionId: "s" });
      await agent.process("first");
      await agent.process("second");
    }
    expect(kept.map((state) => state.messages.length)).toEqual([2, 4]);
    defined(kept[0]?.messages[0], "a kept message").content = "changed by the store";
    expect(kept[1]?.messages[0]).toEqual({ role: "user", content: "first" });
    const saved = (await builtin.get("s"))!;
    expect(saved.messages.map((message) => message.content)).toEqual(["first", "one", "second", "two"]);
    saved.messages.length = 0;
    expect((await builtin.get("s"))!.messages).toHaveLength(4);
  });

  it("continues a transcript written with another provider, reasoning included", async () => {
    const kernel = newKernel();
    const earlier: Message[] = [
      { role: "system", content: "Old prompt." },
      { role: "user", content: "hello" },
      { role: "assistant", content: "hi", reasoning: [{ provider: "anthropic", text: "greet", signature: "sig" }], model: "anthropic/claude" },
    ];
    const model = scriptedModel(["again"], { provider: "openrouter", model: "some/model" });
    const agent = createAgent({ model, kernel });
    await agent.startSession({ messages: earlier });
    await agent.process("still there?");
    expect(model.requests[0]?.messages).toEqual([...earlier, { role: "user", content: "still there?" }]);
    await expect(agent.startSession({ messages: [{ role: "user", content: "a" }, { role: "system", content: "b" }] })).rejects.toMatchObject({
      code: "SESSION_INVALID",
    });
  });

  it("passes changeModel and changeEffort through to the model", async () => {
    const kernel = newKernel();
    const model = scriptedModel(["from other"], { models: ["other"] });
    const agent = createAgent({ model, kernel });
    agent.changeModel("other");
    agent.changeEffort("high");
    expect([model.model, model.effort]).toEqual(["other", "high"]);
    expect(() => agent.changeModel("nope")).toThrow(expect.objectContaining({ code: "MODEL_INVALID" }));
    const response = await agent.process("hi");
    expect(agent.messages().at(-1)).toMatchObject({ role: "assistant", model: "scripted/other" });
    expect(response.content).toBe("from other");
  });

  it("accepts a toolkit-like host and refuses to start without a kernel", async () => {
    const kernel = newKernel();
    const model = scriptedModel([{ toolCalls: [{ name: "add", arguments: { a: 4, b: 4 } }] }, "8"]);
    await kernel.use(definePlugin({ meta: { name: "base", version: "1.0.0", api: PLUGIN_API_VERSION }, setup: (api) => void api.tools.add(add) }));
    const agent = createAgent({ model, toolkit: { kernel } });
    await expect(agent.process("4 + 4")).resolves.toMatchObject({ content: "8" });
    expect(() => createAgent({ model })).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
  });
});
