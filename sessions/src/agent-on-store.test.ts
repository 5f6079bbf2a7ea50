import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { SessionConflictError, defineTool, memoryLogger, type Kernel } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createAgent, createKernel, versionedSessionStore } from "@weft/core";
import { sqliteSessionStore } from "./sqlite-session-store.js";

const dir = mkdtempSync(join(tmpdir(), "weft-agent-store-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

function newKernel(): Kernel {
  const kernel = createKernel({ logger: memoryLogger() });
  kernels.push(kernel);
  return kernel;
}

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
});
