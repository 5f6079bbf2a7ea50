import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import type { Kernel } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { coreBuiltins } from "../builtins/core-builtins.js";
import { createKernel } from "../kernel.js";
import { createAgent } from "./agent.js";
import { fileSessionStore } from "./file-session-store.js";
import { memorySessionStore, type SessionStore } from "./session-store.js";
import { Notes, notesPlugin } from "./test-fixtures/notes-plugin.js";

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function kernelWith(notes?: Notes): Promise<Kernel> {
  const kernel = createKernel({ logger: memoryLogger() });
  kernels.push(kernel);
  await kernel.use(coreBuiltins);
  if (notes) await kernel.use(notesPlugin(notes));
  return kernel;
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "weft-session-services-"));
  dirs.push(dir);
  return dir;
}

const note = (text: string) => ({ toolCalls: [{ name: "note", arguments: { text } }] });

describe.each<[string, () => Promise<SessionStore>]>([
  ["the file store", async () => fileSessionStore(await tempDir())],
  ["the memory store", async () => memorySessionStore()],
])("the state a plugin keeps with a session, in %s", (_, makeStore) => {
  it("is saved with the session, kept as it is by a run without the plugin, and back before the first tool call of the next", async () => {
    const store = await makeStore();
    const stored = async () => (await store.get("s"))?.services;

    const notes = new Notes();
    const first = createAgent({ model: scriptedModel([note("the customer is Ada"), "Noted."]), kernel: await kernelWith(notes), store, sessionId: "s" });
    await first.process("remember Ada");
    await first.close();
    expect(await stored()).toMatchObject({ "test.notes": ["the customer is Ada"] });
    expect(notes.bySession.has("s")).toBe(false);

    const todo = { toolCalls: [{ name: "todowrite", arguments: { todos: [{ content: "refund Ada", status: "pending" }] } }] };
    const without = createAgent({ model: scriptedModel([todo, "Planned."]), kernel: await kernelWith(), store, sessionId: "s" });
    await without.process("plan it");
    await without.close();
    expect(await stored()).toMatchObject({ "test.notes": ["the customer is Ada"], todos: [{ content: "refund Ada", status: "pending" }] });

    const model = scriptedModel([note("she wants a refund"), "Both noted."]);
    const again = createAgent({ model, kernel: await kernelWith(new Notes()), store, sessionId: "s" });
    await again.process("and the refund");
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: "tool", toolName: "note", content: "the customer is Ada; she wants a refund" });
    expect(again.todos()).toEqual([{ content: "refund Ada", status: "pending" }]);
    await again.close();
    expect(await stored()).toMatchObject({ "test.notes": ["the customer is Ada", "she wants a refund"] });
  });

  it("is dropped by a reset, with what a disabled plugin kept; what the session used stays for its limits", async () => {
    const store = await makeStore();
    await store.save("s", { version: 1, sessionId: "s", messages: [], services: { "test.notes": ["old"], "z.elsewhere": { kept: true }, "agent.usage": { modelCalls: 2 } } });
    const notes = new Notes();
    const agent = createAgent({ model: scriptedModel([]), kernel: await kernelWith(notes), store, sessionId: "s" });
    await agent.startSession();
    expect(notes.bySession.get("s")).toEqual(["old"]);
    await agent.resetSession();
    expect(notes.bySession.has("s")).toBe(false);
    expect((await store.get("s"))?.services).toEqual({ "agent.usage": { modelCalls: 2, toolCalls: 0, tokens: 0, costUsd: 0, wallTimeMs: 0 }, todos: [] });
    await agent.close();
  });
});

describe("a session file of an earlier weft", () => {
  it("keeps its todo list and what the session used, which now live with the services", async () => {
    const dir = await tempDir();
    const todos = [{ content: "check the order", status: "in_progress" }];
    const usage = { modelCalls: 3, toolCalls: 0, tokens: 0, costUsd: 0, wallTimeMs: 0 };
    await writeFile(join(dir, "s.json"), JSON.stringify({ version: 1, sessionId: "s", messages: [{ role: "user", content: "hi" }, { role: "assistant", content: "hello" }], todos, usage }));
    const agent = createAgent({ model: scriptedModel(["never"]), kernel: await kernelWith(), store: fileSessionStore(dir), sessionId: "s", limits: { session: { modelCalls: 3 } } });
    await agent.startSession();
    expect(agent.todos()).toEqual(todos);
    expect(await agent.process("again")).toMatchObject({ status: "limit", limit: { scope: "session", name: "modelCalls", used: 3 } });
    await agent.close();
    const saved = JSON.parse(await readFile(join(dir, "s.json"), "utf8")) as Record<string, unknown>;
    expect(saved.services).toMatchObject({ "agent.usage": { modelCalls: 3 }, todos });
    expect(Object.keys(saved.services as object)).toEqual(["agent.usage", "todos"]);
    expect(Object.keys(saved)).not.toContain("todos");
  });
});
