import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, errorResult } from "@weft/sdk";
import type { FeedbackEvent, PendingAnswer, Suspension, Tool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { fileSessionStore } from "./file-session-store.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const newKernel = testKernels(afterEach);

/** A tool that needs the host's approval: it suspends, and runs again with whatever answer comes back. */
function approvalTool(runs: string[]): Tool {
  return defineTool({
    name: "delete_file",
    description: "Delete a file after the user approves",
    input: Type.Object({ path: Type.String() }),
    execute: ({ path }, ctx) => {
      runs.push(ctx.answer ? `${path}:${ctx.answer.action}${ctx.answer.reason ? `:${ctx.answer.reason}` : ""}` : `${path}:asked`);
      if (!ctx.answer) return { output: "waiting for approval", pending: { kind: "approval", message: `delete ${path}?`, data: { path } } };
      if (ctx.answer.action !== "accept") return errorResult(`kept ${path}: the user said ${ctx.answer.action}`);
      return { output: `deleted ${path} (request data ${JSON.stringify(ctx.pending?.data)})` };
    },
  }) as Tool;
}

const deleteA = { toolCalls: [{ name: "delete_file", arguments: { path: "a.txt" } }] };

describe("suspension with waitFor", () => {
  it("hands the request to waitFor and re-runs the tool once with the answer", async () => {
    const kernel = newKernel();
    const runs: string[] = [];
    const asked: Suspension[] = [];
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    const waitFor = async (suspension: Suspension): Promise<PendingAnswer> => (asked.push(suspension), { action: "accept" });
    const agent = createAgent({ model: scriptedModel([deleteA, "Deleted."]), kernel, waitFor });
    await agent.startSession({ tools: [approvalTool(runs)] });
    const response = await agent.process("delete a.txt");
    expect(response).toMatchObject({ status: "done", content: "Deleted." });
    expect(runs).toEqual(["a.txt:asked", "a.txt:accept"]);
    const expected = { kind: "approval", message: "delete a.txt?", data: { path: "a.txt" }, callId: "call_1", toolName: "delete_file" };
    expect(asked).toEqual([expected]);
    expect(events.find((event) => event.type === "tool.pending")).toEqual({ type: "tool.pending", suspension: expected });
    expect(agent.messages().at(-2)).toEqual({ role: "tool", toolCallId: "call_1", toolName: "delete_file", content: 'deleted a.txt (request data {"path":"a.txt"})' });
  });

  it("re-runs the tool with a declined, cancelled or failed answer, so the tool's source learns it", async () => {
    const kernel = newKernel();
    const runs: string[] = [];
    const answers: (() => Promise<PendingAnswer>)[] = [
      async () => ({ action: "decline" }),
      async () => ({ action: "cancel" }),
      async () => {
        throw new Error("nobody answered within 5 minutes");
      },
    ];
    const model = scriptedModel([
      { toolCalls: [{ name: "delete_file", arguments: { path: "a" } }, { name: "delete_file", arguments: { path: "b" } }, { name: "delete_file", arguments: { path: "c" } }] },
      "Nothing deleted.",
    ]);
    const agent = createAgent({ model, kernel, waitFor: () => answers.shift()!() });
    await agent.startSession({ tools: [approvalTool(runs)] });
    await agent.process("delete a, b and c");
    expect(runs).toEqual(["a:asked", "b:asked", "c:asked", "a:decline", "b:cancel", "c:cancel:timeout"]);
    expect(model.requests[1]?.messages.slice(-3)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "delete_file", content: "kept a: the user said decline", isError: true },
      { role: "tool", toolCallId: "call_2", toolName: "delete_file", content: "kept b: the user said cancel", isError: true },
      { role: "tool", toolCallId: "call_3", toolName: "delete_file", content: "kept c: the user said cancel", isError: true },
    ]);
  });

  it("reads the refusal when a tool asks again instead of taking no for an answer", async () => {
    const kernel = newKernel();
    const insistent = defineTool({
      name: "insist",
      description: "Asks until accepted",
      input: Type.Object({}),
      execute: () => ({ output: "waiting", pending: { kind: "approval", message: "go ahead?" } }),
    });
    const answers: (() => Promise<PendingAnswer>)[] = [
      async () => ({ action: "decline" }),
      async () => {
        throw new Error("nobody answered within 5 minutes");
      },
    ];
    const model = scriptedModel([{ toolCalls: [{ name: "insist", arguments: {} }, { name: "insist", arguments: {} }] }, "ok"]);
    const agent = createAgent({ model, kernel, waitFor: () => answers.shift()!(), parallelToolCalls: false });
    await agent.startSession({ tools: [insistent] });
    await agent.process("go");
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "insist", content: "the user declined the request: go ahead?", isError: true },
      { role: "tool", toolCallId: "call_2", toolName: "insist", content: "no answer to the request: go ahead? (nobody answered within 5 minutes)", isError: true },
    ]);
  });

  it("tells the tool when the turn is aborted while the host has not answered", async () => {
    const kernel = newKernel();
    const runs: string[] = [];
    const controller = new AbortController();
    const agent = createAgent({ model: scriptedModel([deleteA]), kernel, waitFor: () => {
        controller.abort();
        return new Promise<PendingAnswer>(() => {});
      },
    });
    await agent.startSession({ tools: [approvalTool(runs)] });
    await expect(agent.process("delete a.txt", { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
    expect(runs).toEqual(["a.txt:asked", "a.txt:cancel:aborted"]);
    expect(agent.messages().at(-1)).toEqual({ role: "tool", toolCallId: "call_1", toolName: "delete_file", content: "delete_file was aborted while waiting for an answer", isError: true });
  });

  it("asks the host one request at a time when parallel calls suspend together", async () => {
    const kernel = newKernel();
    let open = 0;
    let most = 0;
    const waitFor = async (): Promise<PendingAnswer> => {
      most = Math.max(most, ++open);
      await new Promise((resolve) => setImmediate(resolve));
      open--;
      return { action: "accept" };
    };
    const model = scriptedModel([
      { toolCalls: [{ name: "delete_file", arguments: { path: "a" } }, { name: "delete_file", arguments: { path: "b" } }] },
      "done",
    ]);
    const agent = createAgent({ model, kernel, waitFor });
    await agent.startSession({ tools: [approvalTool([])] });
    await agent.process("delete both");
    expect(most).toBe(1);
  });
});

describe("suspension without waitFor", () => {
  it("returns pending, and resume() continues the turn", async () => {
    const kernel = newKernel();
    const runs: string[] = [];
    const model = scriptedModel([{ text: "I need approval.", ...deleteA }, "Deleted a.txt."]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [approvalTool(runs)] });
    const first = await agent.process("delete a.txt");
    expect(first).toMatchObject({
      status: "pending",
      content: "I need approval.",
      suspension: { kind: "approval", message: "delete a.txt?", data: { path: "a.txt" }, callId: "call_1", toolName: "delete_file" },
      metadata: { iterations: 1, toolCalls: 1 },
    });
    expect(await agent.pending()).toEqual(first.suspension);
    expect(agent.messages().at(-1)).toMatchObject({ role: "assistant", toolCalls: [{ id: "call_1" }] });

    const second = await agent.resume({ action: "accept" });
    expect(second).toMatchObject({ status: "done", content: "Deleted a.txt.", metadata: { iterations: 2, toolCalls: 1 } });
    expect(await agent.pending()).toBeUndefined();
    expect(runs).toEqual(["a.txt:asked", "a.txt:accept"]);
    expect(wireProblems(agent.messages())).toEqual([]);
    await expect(agent.resume({ action: "accept" })).rejects.toMatchObject({ code: "NO_PENDING_REQUEST" });
  });

  it("fills every outstanding slot, one answer at a time, results in call order", async () => {
    const kernel = newKernel();
    const plain = defineTool({ name: "plain", description: "Plain", input: Type.Object({}), execute: () => ({ output: "plain result" }) });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: "delete_file", arguments: { path: "a" } },
          { name: "plain", arguments: {} },
          { name: "delete_file", arguments: { path: "b" } },
        ],
      },
      "All settled.",
    ]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [approvalTool([]), plain] });
    expect(await agent.process("go")).toMatchObject({ status: "pending", suspension: { callId: "call_1" } });
    expect(await agent.resume({ action: "accept" })).toMatchObject({ status: "pending", suspension: { callId: "call_3" } });
    expect(await agent.resume({ action: "decline" })).toMatchObject({ status: "done", content: "All settled." });
    expect(model.requests[1]?.messages.slice(-3)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "delete_file", content: "deleted a (request data {\"path\":\"a\"})" },
      { role: "tool", toolCallId: "call_2", toolName: "plain", content: "plain result" },
      { role: "tool", toolCallId: "call_3", toolName: "delete_file", content: "kept b: the user said decline", isError: true },
    ]);
  });

  it("re-runs waiting tools with an abandoned cancel when new input arrives instead, and the model reads their words", async () => {
    const kernel = newKernel();
    const runs: string[] = [];
    const insistent = defineTool({
      name: "insist",
      description: "Asks until accepted",
      input: Type.Object({}),
      execute: () => ({ output: "waiting", pending: { kind: "approval", message: "go ahead?" } }),
    });
    const model = scriptedModel([{ toolCalls: [...deleteA.toolCalls, { name: "insist", arguments: {} }] }, "Fine, I will not."]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [approvalTool(runs), insistent] });
    await agent.process("delete a.txt");
    const moved = await agent.process("actually, don't");
    expect(runs).toEqual(["a.txt:asked", "a.txt:cancel:abandoned"]);
    // A new turn: the abandoned one's counts are not carried over.
    expect(moved.metadata).toMatchObject({ iterations: 1, toolCalls: 0 });
    expect(model.requests[1]?.messages.slice(-3)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: "delete_file", content: "kept a.txt: the user said cancel", isError: true },
      // A tool that asks again is not asked: the model reads why there was no answer.
      { role: "tool", toolCallId: "call_2", toolName: "insist", content: "no answer to the request: go ahead? (the user sent a new message instead)", isError: true },
      { role: "user", content: "actually, don't" },
    ]);
    expect(wireProblems(agent.messages())).toEqual([]);
  });

  it("resumes a pending turn from a stored session in a fresh agent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "weft-sessions-"));
    dirs.push(dir);
    const runs: string[] = [];

    const firstKernel = newKernel();
    const firstModel = scriptedModel([{ text: "Asking first.", ...deleteA, stats: { promptTokens: 30, outputTokens: 6 } }]);
    const first = createAgent({ model: firstModel, kernel: firstKernel, store: fileSessionStore(join(dir, "store")), sessionId: "job/42" });
    await first.startSession({ prompt: "You manage files.", tools: [approvalTool(runs)] });
    const pending = await first.process("delete a.txt");
    expect(pending.status).toBe("pending");
    await first.close();
    expect(await readdir(join(dir, "store"))).toEqual(["job%2F42.json"]);
    const saved = JSON.parse(await readFile(join(dir, "store", "job%2F42.json"), "utf8"));
    expect(saved).toMatchObject({ version: 1, sessionId: "job/42", prompt: "You manage files.", pending: { slots: [{ suspension: { callId: "call_1" } }] } });

    // Another process: a fresh kernel with the same tools, a fresh agent, the same store and id.
    const secondKernel = newKernel();
    const secondModel = scriptedModel([{ text: "Deleted.", stats: { promptTokens: 50, outputTokens: 2 } }]);
    const second = createAgent({ model: secondModel, kernel: secondKernel, store: fileSessionStore(join(dir, "store")), sessionId: "job/42" });
    await second.startSession({ tools: [approvalTool(runs)] });
    expect(await second.pending()).toEqual(pending.suspension);
    const done = await second.resume({ action: "accept" });
    expect(done).toMatchObject({ status: "done", content: "Deleted.", metadata: { iterations: 2, toolCalls: 1, usage: { promptTokens: 80, outputTokens: 8 } } });
    expect(runs).toEqual(["a.txt:asked", "a.txt:accept"]);
    expect(secondModel.requests[0]?.messages).toEqual([
      { role: "system", content: "You manage files." },
      { role: "user", content: "delete a.txt" },
      expect.objectContaining({ role: "assistant", content: "Asking first.", toolCalls: [{ id: "call_1", name: "delete_file", arguments: { path: "a.txt" } }] }),
      { role: "tool", toolCallId: "call_1", toolName: "delete_file", content: 'deleted a.txt (request data {"path":"a.txt"})' },
    ]);
    const resaved = JSON.parse(await readFile(join(dir, "store", "job%2F42.json"), "utf8"));
    expect(resaved.pending).toBeUndefined();
    expect(resaved.messages).toHaveLength(4);
  });
});
