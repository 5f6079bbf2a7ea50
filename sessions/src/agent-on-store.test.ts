import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { SessionConflictError, defineTool, memoryLogger, type AnyTool, type Kernel } from "@weft/sdk";
import { closeAfterEach, scriptedModel } from "@weft/sdk/testing";
import { createAgent, createKernel, versionedSessionStore } from "@weft/core";
import { sqliteSessionStore } from "./sqlite-session-store.js";

const dir = mkdtempSync(join(tmpdir(), "weft-agent-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const closing = closeAfterEach(afterEach);
const newKernel = (): Kernel => closing(createKernel({ logger: memoryLogger() }));

const refund = defineTool({
  name: "refund",
  description: "Refund an order",
  input: Type.Object({ order: Type.Number() }),
  execute: ({ order }, ctx) =>
    ctx.answer ? { output: `refunded ${order}` } : { output: "needs approval", pending: { kind: "approval", message: `Refund order ${order}?` } },
});

describe("today's agent on a contract store (SQLite)", () => {
  it("saves turns, lists a pending approval, and resumes it in a fresh agent on another connection", async () => {
    const file = join(dir, "pending.db");
    const first = sqliteSessionStore({ file });
    const agent = createAgent({
      model: scriptedModel([{ toolCalls: [{ id: "call-1", name: "refund", arguments: { order: 42 } }] }]),
      kernel: newKernel(),
      store: versionedSessionStore(first),
      sessionId: "order-42",
    });
    await agent.startSession({ prompt: "You handle refunds.", tools: [refund] });
    expect(await agent.process("refund 42")).toMatchObject({ status: "pending", suspension: { kind: "approval", callId: "call-1" } });
    expect((await first.list({ pending: true })).map(({ sessionId, pending }) => ({ sessionId, pending }))).toEqual([{ sessionId: "order-42", pending: 1 }]);
    await agent.close();
    await first.close();

    const second = sqliteSessionStore({ file });
    const resumed = createAgent({ model: scriptedModel(["Refunded."]), kernel: newKernel(), store: versionedSessionStore(second), sessionId: "order-42" });
    await resumed.startSession({ tools: [refund] });
    expect(await resumed.pending()).toMatchObject({ message: "Refund order 42?" });
    expect(await resumed.resume({ action: "accept" })).toMatchObject({ status: "done", content: "Refunded." });
    const stored = await second.load("order-42");
    expect(stored?.pending).toBeUndefined();
    expect(stored?.prompt).toBe("You handle refunds.");
    expect(stored?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "assistant"]);
    expect(stored?.messages[2]).toMatchObject({ role: "tool", content: "refunded 42" });
    await resumed.close();
    await second.close();
  });

  it("keeps what the session's services hold, a disabled plugin's entry as it is, and what the session used for its limits", async () => {
    const store = sqliteSessionStore({ file: join(dir, "services.db") });
    const todos = [{ content: "check order 42", status: "pending" }];
    const elsewhere = { "Billing_Agent__chat": { contextId: "ctx-7", openTaskId: "task-3" } };
    await store.save("s1", { messages: [], services: { todos, "a2a.conversations": elsewhere } }, 0);
    const limits = { session: { modelCalls: 2 } };
    const first = createAgent({ model: scriptedModel(["one"]), kernel: newKernel(), store: versionedSessionStore(store), sessionId: "s1", limits });
    await first.startSession();
    expect(first.todos()).toEqual(todos);
    await first.process("hi");
    await first.close();
    expect((await store.load("s1"))?.services).toMatchObject({ "a2a.conversations": elsewhere, "agent.usage": { modelCalls: 1 }, todos });

    const second = createAgent({ model: scriptedModel(["two", "never"]), kernel: newKernel(), store: versionedSessionStore(store), sessionId: "s1", limits });
    expect(await second.process("again")).toMatchObject({ status: "done", content: "two" });
    expect(await second.process("and again")).toMatchObject({ status: "limit", limit: { scope: "session", name: "modelCalls", used: 2 } });
    await second.close();
    await store.close();
  });

  it("fails the second of two agents resuming the same session with SessionConflictError, writing nothing of its turn", async () => {
    const file = join(dir, "race.db");
    const seed = sqliteSessionStore({ file });
    const seeding = createAgent({ model: scriptedModel(["hello"]), kernel: newKernel(), store: versionedSessionStore(seed), sessionId: "shared" });
    await seeding.process("hi");
    await seeding.close();
    await seed.close();

    const stores = [sqliteSessionStore({ file }), sqliteSessionStore({ file })];
    const agents = stores.map((store, index) =>
      createAgent({ model: scriptedModel([`answer ${index}`]), kernel: newKernel(), store: versionedSessionStore(store), sessionId: "shared" }),
    );
    for (const agent of agents) await agent.startSession();
    expect(await agents[0]?.process("from worker 0")).toMatchObject({ content: "answer 0" });
    await expect(agents[1]?.process("from worker 1")).rejects.toBeInstanceOf(SessionConflictError);
    const stored = await stores[0]?.load("shared");
    expect(stored?.messages.map((message) => message.content)).toEqual(["hi", "hello", "from worker 0", "answer 0"]);
    for (const agent of agents) await agent.close();
    for (const store of stores) await store.close();
  });

  it("continues a crashed turn from its write-ahead records: a completed call keeps its result, a running one is interrupted", async () => {
    const store = sqliteSessionStore({ file: join(dir, "crashed.db") });
    await store.save("s1", { messages: [{ role: "user", content: "refund 1 and 2" }], services: { todos: [] } }, 0);
    const calls = [
      { id: "c1", name: "refund", arguments: { order: 1 } },
      { id: "c2", name: "refund", arguments: { order: 2 } },
    ];
    await store.append("s1", { kind: "assistant", turnId: "t1", message: { role: "assistant", content: "", toolCalls: calls } }, 1);
    await store.append("s1", { kind: "tool-result", turnId: "t1", message: { role: "tool", toolCallId: "c1", toolName: "refund", content: "refunded 1" } }, 2);
    const model = scriptedModel(["Order 1 is refunded; order 2 needs checking."]);
    const agent = createAgent({ model, kernel: newKernel(), store: versionedSessionStore(store), sessionId: "s1" });
    expect(await agent.interrupted()).toBe(true);
    await agent.startSession({ tools: [refund] });
    expect(await agent.resume()).toMatchObject({ status: "done", content: "Order 1 is refunded; order 2 needs checking." });
    expect(model.requests[0]?.messages.slice(-3)).toEqual([
      { role: "assistant", content: "", toolCalls: calls },
      { role: "tool", toolCallId: "c1", toolName: "refund", content: "refunded 1" },
      { role: "tool", toolCallId: "c2", toolName: "refund", content: "the process stopped while this tool ran; it may or may not have completed", isError: true },
    ]);
    const stored = await store.load("s1");
    expect(stored?.records).toEqual([]);
    expect(stored?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant"]);
    await agent.close();
    await store.close();
  });

  it("resumes a turn a SIGKILL cut short in another process: the completed call is not run again", async () => {
    // The core's crash worker, on a SQLite file: killed once `record` is stored and the two others run.
    const worker = fileURLToPath(new URL("../../core/src/agent/test-fixtures/crash-worker.mjs", import.meta.url));
    const work = mkdtempSync(join(dir, "kill-"));
    const child = spawn(process.execPath, [worker, work, "job-7", "round", "sqlite"], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      const started = new Set<unknown>();
      let recorded = false;
      let buffered = "";
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        buffered += chunk;
        for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
          const line = JSON.parse(buffered.slice(0, end)) as Record<string, unknown>;
          buffered = buffered.slice(end + 1);
          started.add(line.started);
          if (line.appended === "tool-result" && line.callId === "c1") recorded = true;
          if (recorded && started.has("charge") && started.has("lookup")) resolve();
        }
      });
      child.once("exit", (code) => reject(new Error(`the worker exited (${String(code)}) before the step the test waits for`)));
    });
    const killed = new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    child.kill("SIGKILL");
    expect(await killed).toBe("SIGKILL");

    const local = (name: string, idempotentHint?: boolean): AnyTool => ({
      name,
      description: `The ${name} tool`,
      inputSchema: { type: "object", properties: {} },
      ...(idempotentHint ? { annotations: { idempotentHint } } : {}),
      async execute() {
        appendFileSync(join(work, "runs.log"), `${name}:resumed\n`);
        return { output: `${name} done` };
      },
    });
    const store = sqliteSessionStore({ file: join(work, "sessions.db") });
    const model = scriptedModel(["Checked."]);
    const agent = createAgent({ model, kernel: newKernel(), store: versionedSessionStore(store), sessionId: "job-7" });
    await agent.startSession({ tools: [local("record"), local("charge"), local("lookup", true)] });
    expect(await agent.resume()).toMatchObject({ status: "done", content: "Checked." });
    expect(readFileSync(join(work, "runs.log"), "utf8").trim().split("\n").sort()).toEqual(["charge:worker", "lookup:resumed", "lookup:worker", "record:worker"]);
    expect(model.requests[0]?.messages.slice(-3).map((message) => message.content)).toEqual([
      "recorded",
      "the process stopped while this tool ran; it may or may not have completed",
      "lookup done",
    ]);
    expect((await store.load("job-7"))?.records).toEqual([]);
    await agent.close();
    await store.close();
  });
});
