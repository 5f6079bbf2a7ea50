import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { restateAgentClient, type RestateAgentClient } from "./agent-client.js";
import { freePort, startRestateServer, startWorker, type RestateServer, type WorkerProcess } from "./test-fixtures/restate-server.js";

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
    expect(effectLines[1]).toMatch(/^record 7 two-turn\/inv_\w+\/rec-7$/);
    expect(effectLines[2]).toMatch(/^slow 7 two-turn\/inv_\w+\/slow-7$/);
    await stopWorker(one);
  });
});
