import { execFile } from "node:child_process";
import { mkdtemp, readFile, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createAgent } from "@weft/core";
import { memoryLogger, type FeedbackEvent, type Kernel, type PendingAnswer } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import mcp from "./index.js";
import { SERVERS, WAIT, feedbackRecorder, mcpHost, startTwoEraHttp } from "./test-fixtures/harness.js";

/**
 * Servers built on @modelcontextprotocol/server 2.x, of both eras, over stdio and Streamable HTTP: weft
 * speaks 2026-07-28 to the one that offers it and the 2025 handshake to the other, and their questions,
 * list changes and cache hints reach the host. The server says which era it serves (its `era` tool).
 */
const run = promisify(execFile);
const pluginDir = fileURLToPath(new URL("..", import.meta.url));
const repoRoot = join(pluginDir, "../..");
const compiled = join(pluginDir, "node_modules/.cache/weft-out-of-process/test-fixtures");

type Era = "2026" | "2025";
const PROTOCOL: Record<Era, string> = { "2026": "2026-07-28", "2025": "2025-11-25" };
const SERVED: Record<Era, string> = { "2026": "modern", "2025": "legacy" };

const scratch: string[] = [];
const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(stops.map((stop) => stop()));
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "weft-two-eras-"));
  scratch.push(dir);
  return dir;
}

/** The server entry of mcp.json: a child on stdio, or a server the test starts on HTTP. */
async function entryFor(era: Era, transport: "stdio" | "http", ...args: string[]): Promise<Record<string, unknown>> {
  if (transport === "stdio") return { command: process.execPath, args: [SERVERS.twoEra, `--era=${era}`, ...args] };
  const server = await startTwoEraHttp(`--era=${era}`, ...args);
  stops.push(server.stop);
  return { url: server.url };
}

async function kernelWith(entry: Record<string, unknown>): Promise<{ kernel: Kernel; events: FeedbackEvent[] }> {
  const recorder = feedbackRecorder();
  const kernel = await createTestKernel([[mcp, { config: { mcpServers: { srv: entry } }, elicitation: true }], recorder.plugin], { logger: memoryLogger() });
  return { kernel, events: recorder.events };
}

describe.each([
  { era: "2026" as const, transport: "stdio" as const },
  { era: "2025" as const, transport: "stdio" as const },
  { era: "2026" as const, transport: "http" as const },
  { era: "2025" as const, transport: "http" as const },
])("a $era server over $transport", ({ era, transport }) => {
  let kernel: Kernel;
  let events: FeedbackEvent[];

  beforeAll(async () => {
    ({ kernel, events } = await kernelWith(await entryFor(era, transport)));
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it(`is spoken to in ${PROTOCOL[era]}, and status and feedback say so`, async () => {
    expect(mcpHost(kernel).status()).toEqual([{ name: "srv", state: "connected", tools: 8, protocol: PROTOCOL[era] }]);
    expect(events.filter((event) => event.type === "mcp.status" && event.state === "connected")).toEqual([
      { type: "mcp.status", server: "srv", state: "connected", tools: 8, protocol: PROTOCOL[era] },
    ]);
    expect(await kernel.execute({ name: "srv__era", arguments: {} })).toMatchObject({ output: SERVED[era] });
    expect(await kernel.execute({ name: "srv__echo", arguments: { text: "hi" } })).toMatchObject({ output: "hi" });
  });

  it("asks the server's question through the host's waitFor, and the server gets the answer", async () => {
    const asked: unknown[] = [];
    const waitFor = async (request: unknown): Promise<PendingAnswer> => {
      asked.push(request);
      return { action: "accept", content: { ok: true } };
    };
    const model = scriptedModel([{ toolCalls: [{ name: "srv__confirm", arguments: { target: "prod" } }] }, "Deployed."]);
    const agent = createAgent({ model, kernel, waitFor });
    expect(await agent.process("deploy prod")).toMatchObject({ status: "done", content: "Deployed." });
    await agent.close();
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
    expect(asked).toMatchObject([{ kind: "elicitation", message: "Deploy prod?", schema, toolName: "srv__confirm" }]);
    // 2026-07-28: an input_required result whose round rides in the request; 2025: a question held on the call.
    const data = (asked[0] as { data: Record<string, unknown> }).data;
    if (era === "2026") expect(data).toEqual({ server: "srv", round: { requestState: '{"target":"prod"}', questions: [{ key: "confirm", params: expect.objectContaining({ message: "Deploy prod?" }) }], responses: {} } });
    else expect(data).toEqual({ server: "srv", token: expect.any(String), mode: "form" });
    const read = model.requests[1]?.messages.find((message) => message.role === "tool")?.content;
    // The SDK's server shim runs the same handler for 2025 clients: there, too, the state comes back.
    expect(read).toBe('deployed prod (state {"target":"prod"})');
  });

  it("sends a decline to the server, whose answer the model reads", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "srv__confirm", arguments: { target: "staging" } }] }, "Not deployed."]);
    const agent = createAgent({ model, kernel, waitFor: async () => ({ action: "decline" }) });
    expect(await agent.process("deploy staging")).toMatchObject({ status: "done" });
    await agent.close();
    expect(model.requests[1]?.messages.find((message) => message.role === "tool")?.content).toBe("not deployed: the user said decline");
  });

  it("cancels a call the caller aborts, on the server", async () => {
    const hangs = async () => (await kernel.execute({ name: "srv__hangs", arguments: {} })).output;
    const controller = new AbortController();
    const running = kernel.execute({ name: "srv__hang", arguments: {} }, { signal: controller.signal });
    await vi.waitFor(async () => expect(await hangs()).toBe("1 started, 0 cancelled"), WAIT);
    controller.abort();
    expect(await running).toMatchObject({ output: "srv__hang was aborted", isError: true });
    await vi.waitFor(async () => expect(await hangs()).toBe("1 started, 1 cancelled"), WAIT);
  });

  it("refreshes the tool list when the server says it changed", async () => {
    expect(await kernel.execute({ name: "srv__add-tool", arguments: {} })).toMatchObject({ output: "added extra" });
    await vi.waitFor(() => expect(events).toContainEqual({ type: "mcp.tools-changed", server: "srv", added: ["srv__extra"], removed: [] }), WAIT);
    expect(await kernel.execute({ name: "srv__extra", arguments: {} })).toMatchObject({ output: "extra" });
  });
});

describe("a 2026-07-28 server's question to a host that cannot answer", () => {
  // The per-request _meta carries weft's capabilities (no elicitation here): the server refuses to ask.
  it("is refused by the server, which reads weft's capabilities from the request, and the model reads why", async () => {
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { srv: await entryFor("2026", "stdio") } }, elicitation: false }]], { logger: memoryLogger() });
    try {
      expect(await kernel.execute({ name: "srv__confirm", arguments: { target: "prod" } })).toMatchObject({
        output: "MCP server \"srv\" failed to run confirm: Cannot request input 'confirm' (elicitation/create): the request's client capabilities do not declare the required capability",
        isError: true,
      });
    } finally {
      await kernel.close();
    }
  }, 60_000);
});

describe("a 2025-era stdio server that exits at the server/discover probe", () => {
  it("is started again and spoken to in 2025-11-25", async () => {
    const { kernel } = await kernelWith(await entryFor("2025", "stdio", "--exit-on-probe"));
    try {
      expect(mcpHost(kernel).status()).toEqual([{ name: "srv", state: "connected", tools: 8, protocol: "2025-11-25" }]);
      expect(await kernel.execute({ name: "srv__era", arguments: {} })).toMatchObject({ output: "legacy" });
    } finally {
      await kernel.close();
    }
  }, 60_000);
});

describe.each(["stdio", "http"] as const)("a resource of a 2026-07-28 server over %s", (transport) => {
  it("is subscribed to on the subscriptions/listen stream, and its updates reach feedback", async () => {
    const { kernel, events } = await kernelWith(await entryFor("2026", transport));
    try {
      const host = mcpHost(kernel);
      expect(await host.readResource("srv", "test://note")).toEqual([{ uri: "test://note", text: "first" }]);
      await host.subscribe("srv", "test://note");
      expect(await kernel.execute({ name: "srv__touch-note", arguments: { text: "second" } })).toMatchObject({ output: "note is second" });
      await vi.waitFor(() => expect(events).toContainEqual({ type: "mcp.resource-updated", server: "srv", uri: "test://note" }), WAIT);
      expect(await host.readResource("srv", "test://note")).toEqual([{ uri: "test://note", text: "second" }]);
    } finally {
      await kernel.close();
    }
  }, 60_000);
});

describe("a 2026-07-28 server's tools/list cache hint (ttlMs)", () => {
  it("lists the tools again when the hint runs out, without being told they changed", async () => {
    const { kernel, events } = await kernelWith(await entryFor("2026", "http", "--tools-ttl=1000"));
    try {
      expect(await kernel.execute({ name: "srv__add-tool-quietly", arguments: {} })).toMatchObject({ output: "added quiet" });
      await vi.waitFor(() => expect(events).toContainEqual({ type: "mcp.tools-changed", server: "srv", added: ["srv__quiet"], removed: [] }), WAIT);
      expect(await kernel.execute({ name: "srv__quiet", arguments: {} })).toMatchObject({ output: "quiet" });
    } finally {
      await kernel.close();
    }
  }, 60_000);
});

describe("a 2026-07-28 multi-round-trip call suspended in one process", () => {
  beforeAll(async () => {
    // The host processes run compiled from the current sources.
    await run(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(pluginDir, "tsconfig.out-of-process.json")], { cwd: repoRoot });
  }, 120_000);

  it.each(["http", "stdio"] as const)("is answered and finished by another process from the file session store (%s)", async (transport) => {
    const dir = await tempDir();
    const log = join(dir, "answers.jsonl");
    const entry = JSON.stringify(await entryFor("2026", transport, `--log=${log}`));
    const host = (mode: string) => run(process.execPath, [join(compiled, "mrtr-host.js"), mode, join(dir, "store"), entry], { cwd: repoRoot });

    const asked = JSON.parse((await host("ask")).stdout);
    expect(asked).toMatchObject({
      status: "pending",
      suspension: { kind: "elicitation", message: "Deploy prod?", toolName: "deploy__confirm", data: { server: "deploy", round: { requestState: '{"target":"prod"}' } } },
      mcp: [{ name: "deploy", state: "connected", protocol: "2026-07-28" }],
    });
    expect(await readdir(join(dir, "store"))).toContain("deploy-1.json");
    // The first process is gone; nothing has reached the server yet.
    await expect(readFile(log, "utf8")).rejects.toMatchObject({ code: "ENOENT" });

    const finished = JSON.parse((await host("answer")).stdout);
    expect(finished).toEqual({ status: "done", content: "Deployed.", read: 'deployed prod (state {"target":"prod"})' });
    const answers = (await readFile(log, "utf8")).trim().split("\n").map((line) => JSON.parse(line));
    expect(answers).toEqual([{ served: "modern", pid: expect.any(Number), answer: { kind: "elicit", action: "accept", content: { ok: true } }, state: '{"target":"prod"}' }]);
  }, 120_000);
});
