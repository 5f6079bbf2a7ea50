import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKernel, todowriteTool, versionedSessionStore } from "@weft/core";
import { memorySessionStore } from "@weft/sessions";
import { defineTool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { inProcessAgent } from "./in-process-agent.js";
// @ts-expect-error -- the workers' recipe is plain JavaScript, shared with the worker processes
import { recipeParts } from "./test-fixtures/recipe.mjs";
import { restateAgentClient, type RestateAgentClient } from "./agent-client.js";
import type { TurnStreamEvent } from "./journal-events.js";
import { freePort, startBalancer, startRestateServer, type RestateServer } from "./testing/index.js";
import { startWorker, type WorkerProcess } from "./test-fixtures/worker-process.js";

// The real restate-server from npm on 127.0.0.1, real worker processes (the built package), a
// scripted model. Side effects are counted in a file the tools and the model append to.

let server: RestateServer;
let client: RestateAgentClient;
let dir: string;
const workers = new Set<WorkerProcess>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "weft-restate-test-"));
  server = await startRestateServer();
  client = restateAgentClient({ ingressUrl: server.ingressUrl, adminUrl: server.adminUrl });
});

afterAll(async () => {
  for (const worker of workers) await worker.kill();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function worker(port: number, sideEffects: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const started = await startWorker(port, sideEffects, env);
  workers.add(started);
  return started;
}

async function stopWorker(one: WorkerProcess): Promise<void> {
  await one.kill();
  workers.delete(one);
}

function lines(file: string): string[] {
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((line) => line && !line.startsWith("listening")) : [];
}

async function untilLine(file: string, prefix: string): Promise<void> {
  const end = Date.now() + 30_000;
  while (!lines(file).some((line) => line.startsWith(prefix))) {
    if (Date.now() > end) throw new Error(`no "${prefix}" line in ${file}: ${lines(file).join(" | ")}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("an agent session on Restate", () => {
  it("runs a two-turn tool-using session, each call a journaled step with its idempotency key", async () => {
    const effects = join(dir, "two-turn.log");
    const port = await freePort();
    const one = await worker(port, effects);
    await server.register(`http://127.0.0.1:${port}`);
    const first = await client.process("two-turn", "refund 7");
    expect(first).toMatchObject({ status: "done", content: "done refund 7: recorded 7, slow done 7" });
    const second = await client.process("two-turn", "thanks");
    expect(second).toMatchObject({ status: "done", content: "echo thanks" });
    const messages = await client.messages("two-turn");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "tool", "tool", "assistant", "user", "assistant"]);
    const effectLines = lines(effects);
    expect(effectLines.filter((line) => !line.startsWith("model"))).toHaveLength(2);
    expect(effectLines[1]).toMatch(/^record 7 two-turn\/inv_\w+\/rec-7 worker$/);
    expect(effectLines[2]).toMatch(/^slow 7 two-turn\/inv_\w+\/slow-7$/);
    await stopWorker(one);

    // The same recipe in this process gives the same transcript.
    const local = join(dir, "in-process.log");
    const { agent, close } = await inProcessAgent(() =>
      recipeParts({ createKernel, defineTool, scriptedModel, log: (line: string) => appendFileSync(local, `${line}\n`) }),
    );
    expect((await agent.process("refund 7")).content).toBe(first.content);
    expect((await agent.process("thanks")).content).toBe(second.content);
    expect(agent.messages().slice(1)).toEqual(messages);
    await close();
  });

  it("finishes a turn on a second worker after SIGKILL mid tool round, running the completed call once", async () => {
    const effects = join(dir, "crash-tool.log");
    const port = await freePort();
    const first = await worker(port, effects, { HANG: "tool", WORKER_NAME: "A" });
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("crash-tool", "refund 8");
    await untilLine(effects, "hanging tool A");
    await stopWorker(first);
    await worker(port, effects, { WORKER_NAME: "B" });
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done refund 8: recorded 8, slow done 8" });
    const effectLines = lines(effects);
    expect(effectLines.filter((line) => line.startsWith("record 8"))).toHaveLength(1);
    expect(effectLines.filter((line) => line.startsWith("slow 8"))).toHaveLength(1);
    expect(effectLines.filter((line) => line.startsWith("model call 1"))).toHaveLength(1);
  });

  it("finishes a turn on a second worker after SIGKILL mid model call, repeating no completed call", async () => {
    const effects = join(dir, "crash-model.log");
    const port = await freePort();
    const first = await worker(port, effects, { HANG: "model", WORKER_NAME: "A" });
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("crash-model", "refund 9");
    await untilLine(effects, "hanging model A");
    await stopWorker(first);
    await worker(port, effects, { WORKER_NAME: "B" });
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done refund 9: recorded 9, slow done 9" });
    const effectLines = lines(effects);
    expect(effectLines.filter((line) => line.startsWith("model call 1"))).toHaveLength(1);
    expect(effectLines.filter((line) => line.startsWith("record 9"))).toHaveLength(1);
    expect(effectLines.filter((line) => line.startsWith("slow 9"))).toHaveLength(1);
    expect(effectLines.filter((line) => line.startsWith("model call 2"))).toHaveLength(1);
  });

  it("waits for an approval with no worker running, answered later through the ingress alone", async () => {
    const effects = join(dir, "approval.log");
    const port = await freePort();
    const first = await worker(port, effects, { WORKER_NAME: "A" });
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("approval", "approve 5");
    expect(await until(() => client.pending("approval"))).toEqual({ kind: "approval", message: "Refund order 5?", callId: "ok-5", toolName: "approval" });
    await stopWorker(first);
    const awaiting = await client.awaiting("approval");
    expect(awaiting?.suspension.callId).toBe("ok-5");
    await client.resolve(awaiting?.awakeableId ?? "", { action: "accept" });
    await worker(port, effects, { WORKER_NAME: "B" });
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done approve 5: approval: accept" });
    expect(lines(effects).filter((line) => line.startsWith("approved 5"))).toEqual(["approved 5 accept"]);
    expect(await client.pending("approval")).toBeNull();
  });

  it("answers a waiting approval with the object's answer handler", async () => {
    const effects = join(dir, "answer.log");
    const port = await freePort();
    await worker(port, effects);
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("answer", "approve 6");
    await until(() => client.pending("answer"));
    // The decline reaches the tool (it runs again with the answer), and the model reads its own words.
    await client.answer("answer", { action: "decline" });
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done approve 6: approval: decline" });
    await expect(client.answer("answer", { action: "accept" })).rejects.toThrow("waits for no answer");
  });

  it("reports a model call's text deltas while its step runs, never again when the journal is replayed", async () => {
    const effects = join(dir, "deltas.log");
    const port = await freePort();
    const one = await worker(port, effects, { LOG_DELTAS: "1" });
    await server.register(`http://127.0.0.1:${port}`);
    // Request-response mode replays the journal at every step, so a replayed model call would report again.
    const reply = await client.process("deltas", "refund 9");
    expect(reply).toMatchObject({ status: "done", content: "done refund 9: recorded 9, slow done 9" });
    const deltas = lines(effects).filter((line) => line.startsWith("delta "));
    // As the model streamed them (word by word), and each once.
    expect(deltas.map((line) => line.slice("delta ".length))).toEqual(["done ", "refund ", "9: ", "recorded ", "9, ", "slow ", "done ", "9"]);
    await stopWorker(one);
  });

  it("reports model.request, model.response and turn.finished once across a SIGKILL and the replays that resume the turn", async () => {
    const effects = join(dir, "events-once.log");
    const port = await freePort();
    const first = await worker(port, effects, { HANG: "tool", WORKER_NAME: "A", LOG_EVENTS: "1" });
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("events-once", "refund 4");
    await untilLine(effects, "hanging tool A");
    await stopWorker(first);
    await worker(port, effects, { WORKER_NAME: "B", LOG_EVENTS: "1" });
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done refund 4: recorded 4, slow done 4" });
    // Both workers' feedback subscribers together: request-response mode replays the journal at every
    // step, and worker B replays all of A's; each agent-loop event is still heard once. `slow` ran
    // twice (A died in it), so its tool.called is heard twice, its result once.
    const heard = lines(effects).filter((line) => line.startsWith("event ")).map((line) => line.slice("event ".length));
    const count = (type: string) => heard.filter((event) => event === type).length;
    expect(["session.started", "model.request", "model.response", "turn.finished", "tool.returned", "tool.called"].map(count)).toEqual([1, 2, 2, 1, 2, 3]);
    expect(heard.filter((event) => event !== "text.delta" && event !== "session.closed")).toEqual([
      "session.started",
      // The scripted model has no context window: compaction says it is off, once.
      "model.info-unavailable",
      "compaction.skipped",
      "model.request",
      "model.response",
      "tool.called",
      "tool.returned",
      "tool.called",
      "tool.called",
      "tool.returned",
      "model.request",
      "model.response",
      "turn.finished",
    ]);
  });

  it("streams a turn's events to the caller through Restate while the step runs, and on after the worker dies mid-stream", async () => {
    const effects = join(dir, "stream.log");
    const port = await freePort();
    const first = await worker(port, effects, { HANG: "stream", WORKER_NAME: "A", INGRESS_URL: server.ingressUrl });
    await server.register(`http://127.0.0.1:${port}`);
    const turn = await client.send("stream", "refund 3");
    const seen: { index: number; event: TurnStreamEvent }[] = [];
    // Read until the model's first word: worker A is stuck inside that model step, so this came while it ran.
    for await (const item of client.events(turn)) {
      seen.push(item);
      if (item.event.type === "text.delta") break;
    }
    expect(lines(effects)).toContain("hanging stream A");
    expect(seen.map(({ event }) => event.type)).toEqual([
      "session.started",
      // The scripted model has no context window: compaction says it is off, once.
      "model.info-unavailable",
      "compaction.skipped",
      "model.request",
      "model.response",
      "tool.called",
      "tool.returned",
      "tool.called",
      "tool.returned",
      "model.request",
      "text.delta",
    ]);
    expect(seen.map(({ index }) => index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    await stopWorker(first);
    await worker(port, effects, { WORKER_NAME: "B", INGRESS_URL: server.ingressUrl });
    // Read on from the last index seen, as a caller whose connection dropped would.
    const rest: TurnStreamEvent[] = [];
    for await (const { event } of client.events(turn, { from: 11 })) rest.push(event);
    // B replays the journal and runs the model call again: the model.request before it is not reported
    // twice; the step's new attempt is marked, so a caller drops the first attempt's words.
    expect(rest).toEqual([
      { type: "step.retried", step: 4 },
      ...["done ", "refund ", "3: ", "recorded ", "3, ", "slow ", "done ", "3"].map((delta) => ({ type: "text.delta", delta })),
      expect.objectContaining({ type: "model.response" }),
      expect.objectContaining({ type: "turn.finished", status: "done" }),
      { type: "turn.ended" },
    ]);
    expect(await client.result(turn)).toMatchObject({ status: "done", content: "done refund 3: recorded 3, slow done 3" });
    // The relay keeps them: a second reader gets the same stream from the start.
    const again: TurnStreamEvent[] = [];
    for await (const { event } of client.events(turn)) again.push(event);
    expect(again).toEqual([...seen.map(({ event }) => event), ...rest]);
  });

  it("runs a turn as a stream for a caller that goes through the ingress, the approval request included", async () => {
    const effects = join(dir, "stream-approval.log");
    const port = await freePort();
    await worker(port, effects, { INGRESS_URL: server.ingressUrl });
    await server.register(`http://127.0.0.1:${port}`);
    const types: string[] = [];
    for await (const event of client.stream("stream-approval", "approve 2")) {
      types.push(event.type);
      // The request reaches the caller before the turn waits for it.
      if (event.type === "tool.pending") await client.answer("stream-approval", { action: "accept" });
      if (event.type === "response") expect(event.response).toMatchObject({ status: "done", content: "done approve 2: approval: accept" });
    }
    expect(types).toEqual([
      "session.started",
      // The scripted model has no context window: compaction says it is off, once.
      "model.info-unavailable",
      "compaction.skipped",
      "model.request",
      "model.response",
      "tool.called",
      "tool.returned",
      "tool.pending",
      "tool.called",
      "tool.returned",
      "model.request",
      ...Array(5).fill("text.delta"),
      "model.response",
      "turn.finished",
      "response",
    ]);
  });

  it("keeps the session through the sdk's store contract: the document an in-process agent on @weft/sessions keeps, todos included", async () => {
    const effects = join(dir, "plan.log");
    const port = await freePort();
    const first = await worker(port, effects, { WORKER_NAME: "A" });
    await server.register(`http://127.0.0.1:${port}`);
    expect(await client.process("plan", "plan 11")).toMatchObject({ status: "done" });
    await stopWorker(first);
    // Another worker runs the next turn: it loads the todo list with the session, or its save would drop it.
    await worker(port, effects, { WORKER_NAME: "B" });
    expect(await client.process("plan", "thanks")).toMatchObject({ status: "done", content: "echo thanks" });
    const onRestate = await client.stored("plan");

    // The same two turns in-process, each on a fresh agent, on the sdk's memory store through core's adapter.
    const store = memorySessionStore();
    const local = join(dir, "plan-in-process.log");
    for (const input of ["plan 11", "thanks"]) {
      const parts = () => recipeParts({ createKernel, defineTool, scriptedModel, todowriteTool, log: (line: string) => appendFileSync(local, `${line}\n`) });
      const { agent, close } = await inProcessAgent(parts, { store: versionedSessionStore(store), sessionId: "plan" });
      await agent.process(input);
      await close();
    }
    const inProcess = await store.load("plan");
    expect(onRestate?.services.todos).toEqual([{ content: "refund order 11", status: "in_progress" }]);
    // The same services, by the same values; only the session usage's wall time is the run's own.
    const withoutWallTime = (services: Record<string, unknown> | undefined) => ({ ...services, "agent.usage": { ...(services?.["agent.usage"] as object), wallTimeMs: 0 } });
    expect(withoutWallTime(onRestate?.services)).toEqual(withoutWallTime(inProcess?.services));
    expect(Object.keys(onRestate?.services ?? {}).sort()).toEqual(["agent.tokenBaseline", "agent.usage", "todos"]);
    expect(onRestate?.messages).toEqual(inProcess?.messages);
    expect(onRestate?.prompt).toBe("You handle refunds.");
    expect(onRestate).toMatchObject({ sessionId: "plan", version: 2, records: [] });
  });

  it("closes what the recipe built at the end of every attempt, though request-response mode suspends the handler at each step", async () => {
    const effects = join(dir, "lifecycle.log");
    const port = await freePort();
    const one = await worker(port, effects, { LOG_LIFECYCLE: "1" });
    await server.register(`http://127.0.0.1:${port}`);
    expect(await client.process("lifecycle", "refund 12")).toMatchObject({ status: "done" });
    const built = lines(effects).filter((line) => line === "parts built").length;
    // One attempt per step at least (two model calls, two tools, the save): each built its own kernel (and MCP servers, in an application).
    expect(built).toBeGreaterThanOrEqual(5);
    expect(lines(effects).filter((line) => line === "parts closed")).toHaveLength(built);
    await stopWorker(one);
  });

  it("retries a failing model call as the retry policy says, and a provider's refusal not at all", async () => {
    const effects = join(dir, "retry.log");
    const port = await freePort();
    const one = await worker(port, effects, { MODEL_RETRY: JSON.stringify({ maxAttempts: 3, initialIntervalMs: 10 }) });
    await server.register(`http://127.0.0.1:${port}`);
    // A 503 is worth retrying: three attempts, then the turn fails naming the provider's error.
    await expect(client.process("retry-503", "fail 503")).rejects.toThrow("scripted: HTTP 503: the model is unavailable");
    expect(lines(effects).filter((line) => line === "model failing 503")).toHaveLength(3);
    // A 400 would fail the same way every time: one attempt, and the turn fails with the agent's code.
    await expect(client.process("retry-400", "fail 400")).rejects.toThrow("PROVIDER_ERROR: scripted: HTTP 400: the model is unavailable");
    expect(lines(effects).filter((line) => line === "model failing 400")).toHaveLength(1);
    await stopWorker(one);
  });

  it("serves 20 concurrent sessions from two workers behind a balancer, none interleaved with another", async () => {
    const effects = join(dir, "twenty.log");
    const ports = [await freePort(), await freePort()];
    await worker(ports[0] ?? 0, effects, { WORKER_NAME: "A" });
    await worker(ports[1] ?? 0, effects, { WORKER_NAME: "B" });
    const balancer = await startBalancer(ports.map((port) => `http://127.0.0.1:${port}`));
    try {
      await server.register(balancer.url);
      const orders = Array.from({ length: 20 }, (_, index) => 100 + index);
      const responses = await Promise.all(orders.map((order) => client.process(`many-${order}`, `refund ${order}`)));
      expect(responses.map((response) => response.content)).toEqual(orders.map((order) => `done refund ${order}: recorded ${order}, slow done ${order}`));
      for (const order of orders) {
        const contents = (await client.messages(`many-${order}`)).map((message) => message.content);
        expect(contents).toEqual([`refund ${order}`, "", `recorded ${order}`, `slow done ${order}`, `done refund ${order}: recorded ${order}, slow done ${order}`]);
      }
      const records = lines(effects).filter((line) => line.startsWith("record "));
      expect(records).toHaveLength(20);
      expect(new Set(records.map((line) => line.split(" ").at(-1)))).toEqual(new Set(["A", "B"]));
    } finally {
      await balancer.close();
    }
  });
});

/** Polls until `read` gives something other than null/undefined. */
async function until<T>(read: () => Promise<T | null | undefined>): Promise<T> {
  const end = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
