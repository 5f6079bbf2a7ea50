import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, readFileSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { emptyStats } from "@weft/sdk";
import type { AnyTool, ToolAnnotations, TurnRecord } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { fileSessionStore } from "./file-session-store.js";
import type { SessionStore } from "./session-store.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";
import { INTERRUPTED_TEXT } from "./write-ahead.js";

const WORKER = fileURLToPath(new URL("./test-fixtures/crash-worker.mjs", import.meta.url));
const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});
const newKernel = testKernels(afterEach);

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "weft-write-ahead-"));
  dirs.push(dir);
  return dir;
}

/** Runs the crash worker and resolves once `until` has seen every line it waits for; then kills it with SIGKILL. */
async function killMidTurn(dir: string, stopIn: "round" | "model", until: (lines: Record<string, unknown>[]) => boolean): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [WORKER, dir, "job-7", stopIn], { stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  const lines: Record<string, unknown>[] = [];
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  await new Promise<void>((resolve, reject) => {
    let buffered = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf("\n"); end >= 0; end = buffered.indexOf("\n")) {
        lines.push(JSON.parse(buffered.slice(0, end)) as Record<string, unknown>);
        buffered = buffered.slice(end + 1);
        if (until(lines)) resolve();
      }
    });
    child.once("exit", (code) => reject(new Error(`the worker exited (${String(code)}) before the step the test waits for; output ${JSON.stringify(lines)}; stderr ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
  return lines;
}

/** The worker's tools as this process has them: they finish, and note each run. */
function localTools(dir: string): AnyTool[] {
  const tool = (name: string, annotations?: ToolAnnotations): AnyTool => ({
    name,
    description: `The ${name} tool`,
    inputSchema: { type: "object", properties: {} },
    ...(annotations ? { annotations } : {}),
    async execute(_args, ctx) {
      appendFileSync(join(dir, "runs.log"), `${name}:resumed key=${ctx.idempotencyKey ?? "none"}\n`);
      return { output: `${name} done` };
    },
  });
  return [tool("record"), tool("charge"), tool("lookup", { idempotentHint: true })];
}

const runs = (dir: string) => readFileSync(join(dir, "runs.log"), "utf8").trim().split("\n");

describe("write-ahead sessions: a process killed mid-turn", () => {
  it("resumes the round in another process without re-running a completed call; a running call is interrupted unless idempotent", async () => {
    const dir = await tempDir();
    // Killed once the model's reply is stored, `record` has finished and been stored, and both others run.
    await killMidTurn(dir, "round", (lines) => {
      const started = new Set(lines.map((line) => line.started));
      return started.has("charge") && started.has("lookup") && lines.some((line) => line.appended === "tool-result" && line.callId === "c1");
    });
    expect(runs(dir).sort()).toEqual(["charge:worker", "lookup:worker", "record:worker"]);

    const model = scriptedModel(["The charge may not have gone through; I will check before retrying."]);
    const agent = createAgent({ model, kernel: newKernel(), store: fileSessionStore(join(dir, "sessions")), sessionId: "job-7" });
    expect(await agent.interrupted()).toBe(true);
    expect(await agent.pending()).toBeUndefined();
    await agent.startSession({ tools: localTools(dir) });
    const response = await agent.resume();
    expect(response).toMatchObject({ status: "done", content: "The charge may not have gone through; I will check before retrying." });

    // Only the idempotent call ran again, under the key the worker's run had.
    const again = runs(dir).slice(3);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatch(/^lookup:resumed key=job-7\/[0-9a-f-]{36}\/c3$/);
    expect(model.requests[0]?.messages.slice(1)).toEqual([
      { role: "user", content: "do the work" },
      expect.objectContaining({ role: "assistant", content: "Working on it.", toolCalls: expect.arrayContaining([expect.objectContaining({ id: "c2" })]) }),
      { role: "tool", toolCallId: "c1", toolName: "record", content: "recorded" },
      { role: "tool", toolCallId: "c2", toolName: "charge", content: "the process stopped while this tool ran; it may or may not have completed", isError: true },
      { role: "tool", toolCallId: "c3", toolName: "lookup", content: "lookup done" },
    ]);
    expect(wireProblems(agent.messages())).toEqual([]);
    expect(await agent.interrupted()).toBe(false);
    // The save folded the log in and removed it.
    expect((await readdir(join(dir, "sessions"))).sort()).toEqual(["job-7.json"]);
  });

  it("asks the model again after a kill during the model call, with the turn's input kept", async () => {
    const dir = await tempDir();
    await killMidTurn(dir, "model", (lines) => lines.some((line) => line.model === "called") && lines.some((line) => line.appended === "user"));
    const model = scriptedModel(["Done now."]);
    const agent = createAgent({ model, kernel: newKernel(), store: fileSessionStore(join(dir, "sessions")), sessionId: "job-7" });
    await agent.startSession({ prompt: "You do the work.", tools: localTools(dir) });
    expect(await agent.interrupted()).toBe(true);
    expect(await agent.resume()).toMatchObject({ status: "done", content: "Done now." });
    expect(model.requests[0]?.messages).toEqual([
      { role: "system", content: "You do the work." },
      { role: "user", content: "do the work" },
    ]);
  });

  it("answers an interrupted round's running calls as interrupted when new input comes instead", async () => {
    const dir = await tempDir();
    await killMidTurn(dir, "round", (lines) => lines.filter((line) => line.started).length === 3 && lines.some((line) => line.callId === "c1"));
    const model = scriptedModel(["Starting over."]);
    const agent = createAgent({ model, kernel: newKernel(), store: fileSessionStore(join(dir, "sessions")), sessionId: "job-7" });
    await agent.startSession({ tools: localTools(dir) });
    await agent.process("forget it");
    expect(runs(dir)).toHaveLength(3);
    expect(model.requests[0]?.messages.slice(-4).map((message) => message.content)).toEqual(["recorded", INTERRUPTED_TEXT, INTERRUPTED_TEXT, "forget it"]);
    expect(wireProblems(agent.messages())).toEqual([]);
  });
});

describe("write-ahead records", () => {
  /** A file store that also keeps every record it is given in a list. */
  async function watched(): Promise<{ store: SessionStore; records: TurnRecord[] }> {
    const inner = fileSessionStore(await tempDir());
    const records: TurnRecord[] = [];
    return {
      records,
      store: {
        get: (id) => inner.get(id),
        save: (id, state) => inner.save(id, state),
        append: (id, record) => {
          records.push(record);
          return inner.append?.(id, record);
        },
      },
    };
  }

  it("stores the model's calls before any tool runs, and each result as it settles", async () => {
    const { store, records } = await watched();
    const seen: string[] = [];
    const probe: AnyTool = {
      name: "probe",
      description: "Reports what the store held when it ran",
      inputSchema: { type: "object", properties: {} },
      async execute() {
        seen.push(records.map((record) => record.kind).join(","));
        return { output: "probed" };
      },
    };
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: "probe", arguments: {} }] }, { toolCalls: [{ name: "probe", arguments: {} }] }, "ok"]), kernel: newKernel(), store });
    await agent.startSession({ tools: [probe] });
    await agent.process("probe twice");
    expect(seen).toEqual(["user,assistant", "user,assistant,tool-result,assistant"]);
    expect(records.map((record) => record.kind)).toEqual(["user", "assistant", "tool-result", "assistant", "tool-result", "assistant"]);
    expect(new Set(records.map((record) => record.turnId)).size).toBe(1);
  });

  it("keeps a turn that waits for the host pending when the process stopped after an answered slot", async () => {
    const store = fileSessionStore(await tempDir());
    const calls = [
      { id: "a", name: "ask", arguments: {} },
      { id: "b", name: "ask", arguments: {} },
    ];
    const suspension = (callId: string) => ({ kind: "approval" as const, message: "ok?", callId, toolName: "ask" });
    await store.save("s", {
      version: 1,
      sessionId: "s",
      messages: [{ role: "user", content: "go" }, { role: "assistant", content: "", toolCalls: calls }],
      pending: { slots: calls.map((call) => ({ call, suspension: suspension(call.id) })), metadata: { iterations: 1, toolCalls: 2, usage: emptyStats(), finalUsage: emptyStats(), timings: { modelMs: 0, toolMs: 0, totalMs: 0 } }, guard: { count: 0, breaches: 0 }, turnId: "t" },
    });
    // The answer to `a` ran and was stored; the process stopped before the turn saved.
    await store.append?.("s", { kind: "tool-result", turnId: "t", message: { role: "tool", toolCallId: "a", toolName: "ask", content: "approved a" } });
    const agent = createAgent({ model: scriptedModel(["Both settled."]), kernel: newKernel(), store, sessionId: "s" });
    expect(await agent.pending()).toEqual(suspension("b"));
    expect(await agent.interrupted()).toBe(false);
  });
});
