import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Kernel, PendingAnswer, Suspension } from "@weft/sdk";
import { defined, scriptedModel } from "@weft/sdk/testing";
import { createAgent } from "../agent/agent.js";
import { fileSessionStore } from "../agent/file-session-store.js";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { coreBuiltins } from "./core-builtins.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const newKernel = testKernels(afterEach);

async function builtinsKernel(options?: unknown): Promise<Kernel> {
  const kernel = newKernel();
  await kernel.use(coreBuiltins, options);
  await kernel.ready();
  return kernel;
}

describe("core built-in tools", () => {
  it("registers question and todowrite with their descriptions and schemas", async () => {
    const kernel = await builtinsKernel();
    const tools = kernel.tools.list();
    expect(tools.map((tool) => [tool.name, tool.source])).toEqual([
      ["question", { kind: "builtin", id: "@weft/core" }],
      ["todowrite", { kind: "builtin", id: "@weft/core" }],
    ]);
    expect(tools[0]?.description).toBe(
      "Ask the user a question and wait for the answer. Use it when you need a decision or information only the user has; do not ask for what your other tools can find out.",
    );
    expect(tools[1]?.description).toBe(
      "Write your todo list for a task with several steps. Send the whole list each time (it replaces the previous one), with each item's status: pending, in_progress (one at a time) or completed. Mark items completed as soon as they are done.",
    );
    expect(tools[0]?.inputSchema).toMatchObject({ type: "object", required: ["question"] });
    expect(tools[1]?.inputSchema).toMatchObject({ type: "object", required: ["todos"] });
  });

  it("drops single tools by name and ignores names of other packs", async () => {
    const kernel = await builtinsKernel({ tools: { question: false, bash: false } });
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["todowrite"]);
  });

  it("question suspends with the question, and returns the answer once the host accepts", async () => {
    const kernel = await builtinsKernel();
    const asked: Suspension[] = [];
    const waitFor = async (suspension: Suspension): Promise<PendingAnswer> => {
      asked.push(suspension);
      return { action: "accept", content: "PostgreSQL" };
    };
    const model = scriptedModel([{ toolCalls: [{ name: "question", arguments: { question: "Which database?", options: ["PostgreSQL", "SQLite"] } }] }, "PostgreSQL it is."]);
    const agent = createAgent({ model, kernel, waitFor });
    await agent.process("set up a database");
    expect(asked).toEqual([
      {
        kind: "question",
        message: "Which database?\n1. PostgreSQL\n2. SQLite",
        schema: { type: "string", examples: ["PostgreSQL", "SQLite"] },
        callId: "call_1",
        toolName: "question",
      },
    ]);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: "tool", toolCallId: "call_1", toolName: "question", content: "PostgreSQL" });
  });

  it("question answers by hand: waiting text, declined, and a structured answer", async () => {
    const kernel = await builtinsKernel();
    const first = await kernel.execute({ name: "question", arguments: { question: "Proceed?" } });
    expect(first).toEqual({ output: "waiting for the user's answer", pending: { kind: "question", message: "Proceed?", schema: { type: "string" } } });
    const pending = defined(first.pending);
    expect(await kernel.execute({ name: "question", arguments: { question: "Proceed?" } }, { answer: { action: "decline" }, pending })).toEqual({
      output: "the user declined to answer",
      isError: true,
    });
    expect(await kernel.execute({ name: "question", arguments: { question: "Proceed?" } }, { answer: { action: "accept", content: { yes: true } }, pending })).toEqual({
      output: '{"yes":true}',
    });
    expect(await kernel.execute({ name: "question", arguments: { question: "Proceed?" } }, { answer: { action: "accept", content: "" }, pending })).toEqual({
      output: "(the user gave an empty answer)",
    });
  });

  it("todowrite replaces the session's todo list, renders it, and the list is saved with the session", async () => {
    const dir = await mkdtemp(join(tmpdir(), "weft-todos-"));
    dirs.push(dir);
    const kernel = await builtinsKernel();
    const todos = [
      { content: "Read the config", status: "completed" },
      { content: "Fix the loader", status: "in_progress" },
      { content: "Write tests", status: "pending" },
    ];
    const model = scriptedModel([
      { toolCalls: [{ name: "todowrite", arguments: { todos: [{ content: "Read the config", status: "pending" }] } }] },
      { toolCalls: [{ name: "todowrite", arguments: { todos } }] },
      "Planned.",
    ]);
    const agent = createAgent({ model, kernel, store: fileSessionStore(dir), sessionId: "plan" });
    await agent.process("plan the work");
    expect(model.requests[2]?.messages.at(-1)).toEqual({
      role: "tool",
      toolCallId: "call_2",
      toolName: "todowrite",
      content: "[x] Read the config\n[ ] Fix the loader (in progress)\n[ ] Write tests",
    });
    expect(agent.todos()).toEqual(todos);

    // A fresh agent on the same store gets the list back.
    const again = createAgent({ model: scriptedModel([]), kernel, store: fileSessionStore(dir), sessionId: "plan" });
    await agent.close();
    await again.startSession();
    expect(again.todos()).toEqual(todos);
    await again.resetSession();
    expect(again.todos()).toEqual([]);
  });

  it("todowrite without an agent session keeps the list for the plugin's lifetime", async () => {
    const kernel = await builtinsKernel();
    expect(await kernel.execute({ name: "todowrite", arguments: { todos: [] } })).toMatchObject({ output: "(the todo list is empty)" });
    const result = await kernel.execute({ name: "todowrite", arguments: { todos: [{ content: "Ship", status: "completed" }] } });
    expect(result).toEqual({ output: "[x] Ship", metadata: { todos: [{ content: "Ship", status: "completed" }] } });
    expect(await kernel.execute({ name: "todowrite", arguments: { todos: [{ content: "Ship", status: "done" }] } })).toMatchObject({ isError: true });
  });
});
