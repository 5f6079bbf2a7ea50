import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { fileSessionStore, versionedSessionStore, type SessionStore } from "@weft/core";
import { postgresSessionStore } from "@weft/sessions/postgres";
import { sqliteSessionStore } from "@weft/sessions/sqlite";
import { POSTGRES_URL_VARIABLE, startPostgresCluster, type PostgresCluster } from "@weft/sessions/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONVERSATIONS_SERVICE } from "./index.js";
import { startAgentServer, type AgentServer } from "./test-fixtures/agent-server.js";
import { rememberingAgent } from "./test-fixtures/remembering-agent.js";

const run = promisify(execFile);
const TOOL = "Memo_Agent__chat";
// Each step runs the built plugin (npm test builds every package first) in a node process of its own.
const worker = fileURLToPath(new URL("./test-fixtures/agent-process.mjs", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "weft-a2a-store-"));
let server: AgentServer;
let cluster: PostgresCluster | undefined;
let postgresUrl = process.env[POSTGRES_URL_VARIABLE] ?? "";

beforeAll(async () => {
  server = await startAgentServer({ name: "Memo Agent", streaming: true, skills: [{ id: "chat", name: "Chat", description: "Talks" }], run: rememberingAgent() });
  if (!postgresUrl) {
    cluster = await startPostgresCluster();
    postgresUrl = cluster.url;
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
  cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Where each kind of store keeps its sessions, and the same store opened in this process to read them. */
const stores: { kind: string; where: () => string; open: (where: string) => { store: SessionStore; close(): Promise<void> } }[] = [
  { kind: "file", where: () => join(dir, "sessions"), open: (where) => ({ store: fileSessionStore(where), close: async () => {} }) },
  {
    kind: "sqlite",
    where: () => join(dir, "sessions.db"),
    open: (where) => {
      const contract = sqliteSessionStore({ file: where });
      return { store: versionedSessionStore(contract), close: () => contract.close() };
    },
  },
  {
    kind: "postgres",
    where: () => postgresUrl,
    open: (where) => {
      const contract = postgresSessionStore({ url: where });
      return { store: versionedSessionStore(contract), close: () => contract.close() };
    },
  },
];

describe.each(stores)("an A2A conversation stored in the $kind store", ({ kind, where, open: openStore }) => {
  it("continues in one remote context, and its open task, across four processes", async () => {
    const sessionId = `a2a-${kind}-${process.pid}`;
    const step = async (action: { say: string } | { answer: string }) => {
      const { stdout } = await run(process.execPath, [worker, kind, where(), sessionId, server.cardUrl, JSON.stringify(action)], { timeout: 60_000 });
      return JSON.parse(stdout) as { status: string; tool?: unknown };
    };
    const seen = server.messages.length;

    const conversations = async () => {
      const reader = openStore(where());
      try {
        return (await reader.store.get(sessionId))?.services?.[CONVERSATIONS_SERVICE];
      } finally {
        await reader.close();
      }
    };

    expect(await step({ say: "apples" })).toEqual({ status: "done", tool: "So far: apples" });
    const contextId = server.messages.at(-1)?.contextId;
    expect(await conversations()).toEqual({ [TOOL]: { contextId } });
    // The remote agent asks back: the process ends with the turn pending and the task open, in the store.
    expect(await step({ say: "book a table" })).toEqual({ status: "pending", tool: "For how many?" });
    const open = await conversations();
    expect(open).toEqual({ [TOOL]: { contextId, openTaskId: expect.any(String) } });
    // "Booked" is said only on the task the agent left open: the answer continued it, no new task began.
    expect(await step({ answer: "four" })).toEqual({ status: "done", tool: "Booked for four" });
    expect(server.messages.at(-1)?.taskId).toBe((open as Record<string, { openTaskId: string }>)[TOOL]?.openTaskId);
    expect(await step({ say: "pears" })).toEqual({ status: "done", tool: "So far: apples, pears" });

    const messages = server.messages.slice(seen);
    expect(messages.map((message) => message.contextId)).toEqual([contextId, contextId, contextId, contextId]);
    expect(await conversations()).toEqual({ [TOOL]: { contextId } });
  }, 240_000);
});
