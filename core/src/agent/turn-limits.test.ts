import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";
import type { ChatRequest, Kernel, StepInfo } from "@weft/sdk";
import { scriptedModel, type ScriptedTurn } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { memorySessionStore } from "./session-store.js";
import { hasToolCall, stepCountIs } from "./stop-conditions.js";
import { readTool } from "./test-fixtures/read-tool.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const newKernel = testKernels(afterEach);

/** A kernel with `read` (answers at once) and `wait` (sleeps 20 ms), counting the calls that ran. */
function setup(): { kernel: Kernel; ran: string[] } {
  const kernel = newKernel();
  const ran: string[] = [];
  kernel.hooks.tools.tap((tools) => {
    tools.add(readTool(ran));
    tools.add(
      defineTool({
        name: "wait",
        description: "Wait a little",
        input: Type.Object({}),
        execute: async () => {
          ran.push("wait");
          await new Promise((resolve) => setTimeout(resolve, 20));
          return { output: "waited" };
        },
      }),
    );
    tools.add(defineTool({ name: "finish", description: "Give the final answer", input: Type.Object({ answer: Type.String() }), execute: ({ answer }) => ({ output: answer }) }));
  });
  return { kernel, ran };
}

const reads = (count: number, perRound = 1, stats: Record<string, number> = {}): ScriptedTurn[] =>
  Array.from({ length: count }, (_, round) => ({ toolCalls: Array.from({ length: perRound }, (_, index) => ({ name: "read", arguments: { path: `f${round}-${index}` } })), stats }));

describe("budgets", () => {
  it("ends the turn with status limit at the turn's model-call limit, every call answered", async () => {
    const { kernel } = setup();
    const model = scriptedModel([...reads(5), "never"]);
    const agent = createAgent({ model, kernel, limits: { turn: { modelCalls: 2 } } });
    const response = await agent.process("read them all");
    expect(response).toMatchObject({ status: "limit", limit: { scope: "turn", name: "modelCalls", limit: 2, used: 2 }, metadata: { iterations: 2, toolCalls: 2 } });
    expect(model.requests).toHaveLength(2);
    expect(agent.messages().at(-1)).toMatchObject({ role: "tool", content: "contents of f1-0" });
    expect(wireProblems(agent.messages())).toEqual([]);
    // The next turn starts afresh: its own two calls.
    const next = await agent.process("go on");
    expect(next.limit).toMatchObject({ used: 2 });
  });

  it("runs calls up to the tool-call limit and answers the rest unrun, saying why", async () => {
    const { kernel, ran } = setup();
    const model = scriptedModel([...reads(3, 2), "never"]);
    const agent = createAgent({ model, kernel, limits: { turn: { toolCalls: 3 } } });
    const response = await agent.process("read");
    expect(ran).toEqual(["f0-0", "f0-1", "f1-0"]);
    expect(response).toMatchObject({ status: "limit", limit: { scope: "turn", name: "toolCalls", limit: 3, used: 3 }, metadata: { toolCalls: 3 } });
    expect(agent.messages().at(-1)).toEqual({ role: "tool", toolCallId: "call_4", toolName: "read", content: "read was not run: the turn's limit of 3 tool calls was reached", isError: true });
    expect(wireProblems(agent.messages())).toEqual([]);
  });

  it("stops at the token budget, counted over every model call", async () => {
    const { kernel } = setup();
    const model = scriptedModel([...reads(5, 1, { promptTokens: 10, outputTokens: 5 }), "never"]);
    const response = await createAgent({ model, kernel, limits: { turn: { tokens: 40 } } }).process("read");
    expect(response).toMatchObject({ status: "limit", limit: { scope: "turn", name: "tokens", limit: 40, used: 45 } });
    expect(model.requests).toHaveLength(3);
  });

  it("stops at the cost budget, from the replies' costUsd", async () => {
    const { kernel } = setup();
    const model = scriptedModel([...reads(5, 1, { costUsd: 0.01 }), "never"]);
    const response = await createAgent({ model, kernel, limits: { turn: { costUsd: 0.025 } } }).process("read");
    expect(response.status).toBe("limit");
    expect(response.limit).toMatchObject({ scope: "turn", name: "costUsd", limit: 0.025 });
    expect(response.limit?.used).toBeCloseTo(0.03);
    expect(model.requests).toHaveLength(3);
  });

  it("stops at the wall-time budget before the next model call", async () => {
    const { kernel } = setup();
    const model = scriptedModel([{ toolCalls: [{ name: "wait", arguments: {} }] }, "never"]);
    const response = await createAgent({ model, kernel, limits: { turn: { wallTimeMs: 1 } } }).process("wait");
    expect(response).toMatchObject({ status: "limit", limit: { scope: "turn", name: "wallTimeMs", limit: 1 } });
    expect(response.limit?.used).toBeGreaterThanOrEqual(20);
    expect(model.requests).toHaveLength(1);
  });

  it("counts the session's budget over its turns, and keeps it in the store for another agent", async () => {
    const { kernel } = setup();
    const store = memorySessionStore();
    const model = scriptedModel([...reads(1), "first done", ...reads(3), "never"]);
    const agent = createAgent({ model, kernel, store, sessionId: "s1", limits: { session: { modelCalls: 3 } } });
    expect((await agent.process("one")).status).toBe("done");
    const second = await agent.process("two");
    expect(second).toMatchObject({ status: "limit", limit: { scope: "session", name: "modelCalls", limit: 3, used: 3 }, metadata: { iterations: 1 } });
    await agent.close();
    const again = createAgent({ model: scriptedModel(["never"]), kernel, store, sessionId: "s1", limits: { session: { modelCalls: 3 } } });
    const third = await again.process("three");
    expect(third).toMatchObject({ status: "limit", limit: { scope: "session", used: 3 }, metadata: { iterations: 0 } });
    expect(wireProblems(again.messages())).toEqual([]);
  });
});

describe("maxIterations", () => {
  it("is 50 when unset, as the README says; 0 is no limit", async () => {
    const { kernel } = setup();
    const looping = scriptedModel(reads(51));
    const error = await createAgent({ model: looping, kernel }).process("loop").catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: "MAX_ITERATIONS", iterations: 50 });
    const unlimited = scriptedModel([...reads(60), "done at last"]);
    expect(await createAgent({ model: unlimited, kernel, maxIterations: 0, repeatLimit: 0 }).process("loop")).toMatchObject({ status: "done", metadata: { iterations: 61 } });
  });
});

describe("stopWhen and prepareStep", () => {
  it("ends the turn after the step a stop condition holds for, with its reason", async () => {
    const { kernel } = setup();
    const model = scriptedModel([...reads(1), { toolCalls: [{ name: "finish", arguments: { answer: "42" } }] }, "never"]);
    const agent = createAgent({ model, kernel, stopWhen: [stepCountIs(10), hasToolCall("finish")] });
    const response = await agent.process("answer");
    expect(response).toMatchObject({ status: "incomplete", reason: "stop-condition", stoppedBy: "finish was called", metadata: { iterations: 2 } });
    expect(agent.messages().at(-1)).toMatchObject({ role: "tool", toolName: "finish", content: "42" });
    expect(model.remaining).toBe(1);
  });

  it("lets a plugin stop the loop through the session's stopWhen hook", async () => {
    const { kernel } = setup();
    const seen: StepInfo[] = [];
    kernel.hooks.stopWhen.tap((step) => {
      seen.push(step);
      return step.step >= 2 ? "two steps are enough" : undefined;
    });
    const model = scriptedModel([...reads(5), "never"]);
    const response = await createAgent({ model, kernel }).process("read");
    expect(response).toMatchObject({ status: "incomplete", reason: "stop-condition", stoppedBy: "two steps are enough" });
    expect(seen.map((step) => [step.step, step.toolResults.map((result) => result.content)])).toEqual([
      [1, ["contents of f0-0"]],
      [2, ["contents of f1-0"]],
    ]);
  });

  it("changes the model, effort, tools and messages of one call, and puts the model back after it", async () => {
    const { kernel } = setup();
    const used: string[] = [];
    const noting = (reply: ScriptedTurn) => (request: ChatRequest) => {
      used.push(`${model.model}/${model.effort}/${(request.tools ?? []).map((tool) => tool.name).join(",")}`);
      return reply;
    };
    const model = scriptedModel([noting(reads(1)[0] as ScriptedTurn), noting("done")], { models: ["small-model"] });
    const agent = createAgent({
      model,
      kernel,
      prepareStep: (plan, step) =>
        step.step === 0 ? { ...plan, model: "small-model", effort: "low", tools: ["read"], messages: [...plan.messages, { role: "user", content: "Be brief." }] } : undefined,
    });
    const response = await agent.process("read one");
    expect(response.status).toBe("done");
    expect(used).toEqual(["small-model/low/read", "test-model/medium/finish,read,wait"]);
    expect(model.requests[0]?.messages.at(-1)).toEqual({ role: "user", content: "Be brief." });
    // The transcript keeps its own messages: the step's extra message was for that request alone.
    expect(agent.messages().some((message) => message.content === "Be brief.")).toBe(false);
    expect(model.model).toBe("test-model");
  });
});
