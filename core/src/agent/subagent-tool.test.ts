import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";
import type { Kernel, Tool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent, type AgentEvent } from "./agent.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const openKernel = testKernels(afterEach);

/** A kernel with two tools: `lookup` for the subagent, `secret` kept from it by its tool subset. */
function newKernel(): Kernel {
  const kernel = openKernel();
  const lookup = defineTool({
    name: "lookup",
    description: "Look a word up",
    input: Type.Object({ word: Type.String() }),
    execute: ({ word }) => ({ output: `${word}: a small animal` }),
  });
  kernel.scope("test tools").tools.add(lookup);
  kernel.scope("test tools").tools.add(defineTool({ name: "secret", description: "Not for subagents", input: Type.Object({}), execute: () => ({ output: "classified" }) }));
  return kernel;
}

const research = (task: string) => ({ toolCalls: [{ id: "p1", name: "researcher", arguments: { task } }] });
const tool = { name: "researcher", description: "Researches a question and answers it", instructions: "You research words.", tools: { only: ["lookup"] } };

describe("an agent offered to another as a tool", () => {
  it("runs the call in its own session with its prompt and tool subset; the caller's transcript holds the call and the answer", async () => {
    const kernel = newKernel();
    const childModel = scriptedModel([{ text: "Looking it up.", toolCalls: [{ name: "lookup", arguments: { word: "vole" } }] }, "A vole is a small animal."]);
    const researcher = createAgent({ model: childModel, kernel, name: "researcher" });
    const parentModel = scriptedModel([research("what is a vole?"), "Voles are small animals."]);
    const parent = createAgent({ model: parentModel, kernel });
    await parent.startSession({ sessionId: "main", tools: [researcher.asTool(tool)] });

    const events: AgentEvent[] = [];
    for await (const event of parent.stream("tell me about voles")) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: "response", response: { status: "done", content: "Voles are small animals." } });

    expect(childModel.requests[0]?.messages).toEqual([
      { role: "system", content: "You research words." },
      { role: "user", content: "what is a vole?" },
    ]);
    expect(childModel.requests[0]?.tools?.map((spec) => spec.name)).toEqual(["lookup"]);
    expect(parent.messages()).toEqual([
      { role: "user", content: "tell me about voles" },
      expect.objectContaining({ role: "assistant", toolCalls: [{ id: "p1", name: "researcher", arguments: { task: "what is a vole?" } }] }),
      { role: "tool", toolCallId: "p1", toolName: "researcher", content: "A vole is a small animal." },
      expect.objectContaining({ role: "assistant", content: "Voles are small animals." }),
    ]);
    expect(wireProblems(parent.messages())).toEqual([]);
    // The subagent's steps arrive in the caller's stream as progress of the caller's call.
    const progress = events.flatMap((event) => (event.type === "tool.progress" && event.callId === "p1" ? [event.progress.message] : []));
    expect(progress).toEqual(["Looking it up.", "calls lookup"]);
    expect(events.find((event) => event.type === "tool.returned" && event.callId === "p1")).toMatchObject({ name: "researcher", result: { output: "A vole is a small animal.", metadata: { subagentSession: "main/researcher/p1", iterations: 2 } } });
  });

  it.each([
    ["accept", "Published the glossary.", "published"],
    ["decline", "Kept it as a draft.", "kept as a draft"],
  ] as const)("passes a question from inside to the host, and its %s back to the tool that asked", async (action, childAnswer, innerResult) => {
    const kernel = newKernel();
    const answers: string[] = [];
    const approve: Tool = defineTool({
      name: "approve",
      description: "Needs the user's approval",
      input: Type.Object({}),
      execute: (_args, ctx) => {
        if (!ctx.answer) return { output: "waiting", pending: { kind: "approval", message: "publish the glossary?", data: { draft: 3 } } };
        answers.push(`${ctx.answer.action} ${JSON.stringify(ctx.pending?.data)}`);
        return ctx.answer.action === "accept" ? { output: "published" } : { output: "kept as a draft", isError: true };
      },
    }) as Tool;
    kernel.scope("test tools").tools.add(approve);
    const childModel = scriptedModel([{ toolCalls: [{ name: "approve", arguments: {} }] }, childAnswer]);
    const researcher = createAgent({ model: childModel, kernel });
    const parent = createAgent({ model: scriptedModel([research("publish it"), "Done: published."]), kernel });
    await parent.startSession({ sessionId: "main", tools: [researcher.asTool({ ...tool, tools: { only: ["approve"] } })] });

    const asked = await parent.process("publish the glossary");
    expect(asked).toMatchObject({ status: "pending", suspension: { kind: "approval", message: "publish the glossary?", callId: "p1", toolName: "researcher" } });
    expect(asked.suspension?.data).toEqual({ subagentSession: "main/researcher/p1", data: { draft: 3 } });
    expect(await parent.resume({ action })).toMatchObject({ status: "done", content: "Done: published." });
    expect(answers).toEqual([`${action} {"draft":3}`]);
    expect(childModel.requests[1]?.messages.at(-1)).toMatchObject({ role: "tool", toolName: "approve", content: innerResult });
    expect(parent.messages().at(-2)).toEqual({ role: "tool", toolCallId: "p1", toolName: "researcher", content: childAnswer });
  });

  it("aborts the subagent's turn with the caller's", async () => {
    const kernel = newKernel();
    let sawAbort = false;
    const controller = new AbortController();
    kernel.scope("test tools").tools.add(
      defineTool({
        name: "wait",
        description: "Waits until aborted",
        input: Type.Object({}),
        execute: (_args, ctx) =>
          new Promise((resolve) => {
            ctx.signal.addEventListener("abort", () => {
              sawAbort = true;
              resolve({ output: "stopped" });
            });
            // The caller gives up while the subagent's tool runs.
            controller.abort();
          }),
      }),
    );
    const researcher = createAgent({ model: scriptedModel([{ toolCalls: [{ name: "wait", arguments: {} }] }]), kernel });
    const parent = createAgent({ model: scriptedModel([research("wait")]), kernel });
    await parent.startSession({ tools: [researcher.asTool({ ...tool, tools: { only: ["wait"] } })] });
    await expect(parent.process("go", { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
    expect(sawAbort).toBe(true);
    expect(parent.messages().at(-1)).toMatchObject({ role: "tool", toolCallId: "p1", isError: true });
  });

  it.each([
    ["its iteration budget", { maxIterations: 1 }, "max-iterations"],
    ["one of its limits", { limits: { turn: { modelCalls: 1 } } }, "its turn modelCalls limit of 1"],
  ] as const)("keeps to %s and says which when it runs out", async (_budget, budget, why) => {
    const kernel = newKernel();
    const looking = { toolCalls: [{ name: "lookup", arguments: { word: "vole" } }] };
    const researcher = createAgent({ model: scriptedModel([{ text: "Still looking.", ...looking }, looking]), kernel, ...budget });
    const parentModel = scriptedModel([research("vole"), "It gave up."]);
    const parent = createAgent({ model: parentModel, kernel });
    await parent.startSession({ tools: [researcher.asTool(tool)] });
    await parent.process("go");
    expect(parentModel.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "p1",
      toolName: "researcher",
      content: `researcher stopped before it finished (${why}); its last words: Still looking.`,
      isError: true,
    });
  });

  it("hands structured arguments to the subagent as JSON when it declares an input schema", async () => {
    const kernel = newKernel();
    const childModel = scriptedModel(["ok"]);
    const researcher = createAgent({ model: childModel, kernel });
    const input = { type: "object", properties: { word: { type: "string" }, depth: { type: "integer" } }, required: ["word"] };
    const parent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: "define", arguments: { word: "vole", depth: 2 } }] }, "fine"]), kernel });
    await parent.startSession({ tools: [researcher.asTool({ name: "define", description: "Defines a word", input })] });
    await parent.process("define vole");
    expect(childModel.requests[0]?.messages).toEqual([{ role: "user", content: '{"word":"vole","depth":2}' }]);
  });

  it("answers with a typed value when asked for one: validated against the schema, the call's result as JSON", async () => {
    const kernel = newKernel();
    const childModel = scriptedModel([{ toolCalls: [{ name: "lookup", arguments: { word: "vole" } }] }, '{"word": "vole", "kind": "small animal"}']);
    const researcher = createAgent({ model: childModel, kernel });
    const parentModel = scriptedModel([research("what is a vole?"), "A vole is a small animal."]);
    const parent = createAgent({ model: parentModel, kernel });
    const output = { schema: Type.Object({ word: Type.String(), kind: Type.String() }), name: "definition" };
    await parent.startSession({ tools: [researcher.asTool({ ...tool, output })] });
    await parent.process("tell me about voles");
    // The schema went with the subagent's model calls: its tools first, then the typed answer.
    expect(childModel.requests.map((request) => request.output?.name)).toEqual(["definition", "definition"]);
    expect(parentModel.requests[1]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "p1",
      toolName: "researcher",
      content: '{"word":"vole","kind":"small animal"}',
    });
  });

});
