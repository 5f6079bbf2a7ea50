import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryLogger, sanitizeToolName, type FeedbackEvent, type Kernel, type MemoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { WAIT, alive, feedbackRecorder, freePort, mcpHost, stdio } from "./test-fixtures/harness.js";

/** Servers that misbehave, each isolated: the others start and keep working. */
describe("misbehaving servers", () => {
  let kernel: Kernel;
  let logger: MemoryLogger;
  let closedPort: number;

  beforeAll(async () => {
    closedPort = await freePort();
    logger = memoryLogger();
    const config = {
      mcpServers: {
        ok: stdio("test"),
        hung: { ...stdio("test", "--hang-handshake"), timeout: 1500 },
        nothing: stdio("test", "--no-tools"),
        odd: stdio("test", "--odd-names"),
        missing: { command: "/nonexistent/weft-no-such-server" },
        closed: { url: `http://127.0.0.1:${closedPort}/mcp` },
        quiet: { ...stdio("test"), toolTimeout: 1000 },
        patient: { ...stdio("test"), toolTimeout: 2000 },
        bounded: { ...stdio("test"), callTimeout: 1500 },
        noisy: stdio("test", "--noisy-stdout"),
        old: stdio("test", "--bad-version"),
        refusing: stdio("test", "--refuse-initialize"),
      },
    };
    kernel = await createTestKernel([[mcp, { config }]], { logger });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("reports each failure in the status, with a warning, and starts the rest", () => {
    const status = Object.fromEntries(mcpHost(kernel).status().map((server) => [server.name, server]));
    expect(status.ok).toEqual({ name: "ok", state: "connected", tools: 11, protocol: "2025-11-25" });
    expect(status.hung).toEqual({ name: "hung", state: "failed", tools: 0, error: 'did not connect and list its tools within 1500 ms (its "timeout")' });
    expect(status.missing).toEqual({
      name: "missing",
      state: "failed",
      tools: 0,
      error: `cannot start "/nonexistent/weft-no-such-server": no such program (or the working directory ${process.cwd()} does not exist); check "command" and "cwd"`,
    });
    expect(status.closed).toEqual({
      name: "closed",
      state: "failed",
      tools: 0,
      error: `cannot reach http://127.0.0.1:${closedPort}/mcp: connection refused (is the server running?)`,
    });
    expect(logger.warnings()).toContain(`MCP server "hung" failed to start: did not connect and list its tools within 1500 ms (its "timeout")`);
  });

  it("says what went wrong in a handshake the server answered, not how weft stopped it", () => {
    const status = Object.fromEntries(mcpHost(kernel).status().map((server) => [server.name, server]));
    expect(status.old).toEqual({
      name: "old",
      state: "failed",
      tools: 0,
      error: 'the server answered the handshake with protocol version "1999-01-01", which weft does not speak (weft offered 2025-11-25 and also accepts 2025-06-18, 2025-03-26, 2024-11-05, 2024-10-07)',
      stderr: ["handshake answered by hand"],
    });
    expect(status.refusing).toEqual({
      name: "refusing",
      state: "failed",
      tools: 0,
      error: "the server refused the handshake: unsupported client capabilities (weft offered protocol version 2025-11-25)",
      stderr: ["handshake answered by hand"],
    });
  });

  it("keeps the healthy servers working", async () => {
    expect((await kernel.execute({ name: "ok__echo", arguments: { text: "still here" } })).output).toBe("still here");
  });

  it("asks a server without the tools capability for nothing, and keeps it up for its resources", async () => {
    const host = mcpHost(kernel);
    expect(host.status().find((server) => server.name === "nothing")).toEqual({ name: "nothing", state: "connected", tools: 0, protocol: "2025-11-25" });
    expect(kernel.tools.list().filter((tool) => tool.source.id === "nothing")).toEqual([]);
    expect(await host.readResource("nothing", "test://note")).toEqual([{ uri: "test://note", mimeType: "text/plain", text: "a note" }]);
  });

  it("makes published names with invalid characters valid and unique, and calls them by the published name", async () => {
    const names = kernel.tools.list().filter((tool) => tool.source.id === "odd").map((tool) => tool.name);
    const hashed = sanitizeToolName("odd__get_weather_now", new Set(["odd__get_weather_now"]));
    expect(names.sort()).toEqual(["odd__get_weather_now", hashed].sort());
    expect((await kernel.execute({ name: "odd__get_weather_now", arguments: {} })).output).toBe("called get.weather/now");
    expect((await kernel.execute({ name: hashed, arguments: {} })).output).toBe("called get_weather_now");
  });

  it("cancels a call whose server goes quiet past its toolTimeout, and the server stays usable", async () => {
    const result = await kernel.execute({ name: "quiet__hang", arguments: {} });
    expect(result).toMatchObject({
      output: 'MCP server "quiet" went quiet: hang sent no result and no progress for 1000 ms (its toolTimeout), so the call was cancelled',
      isError: true,
      metadata: { timedOut: true },
    });
    await vi.waitFor(async () => expect((await kernel.execute({ name: "quiet__cancellations", arguments: {} })).output).toBe("1"), WAIT);
    expect((await kernel.execute({ name: "quiet__echo", arguments: { text: "after" } })).output).toBe("after");
  });

  it("restarts the toolTimeout on every progress notification", async () => {
    // 6 ticks of 500 ms run past the 2000 ms ceiling; each tick restarts it.
    const result = await kernel.execute({ name: "patient__ticker", arguments: { ticks: 6, intervalMs: 500 } });
    expect(result.output).toBe("ticked 6 times");
  });

  it("cancels a call when the caller aborts", async () => {
    const controller = new AbortController();
    const running = kernel.execute({ name: "ok__hang", arguments: {} }, { signal: controller.signal });
    controller.abort();
    expect(await running).toMatchObject({ output: "ok__hang was aborted", isError: true });
    // The server heard notifications/cancelled for it.
    await vi.waitFor(async () => expect((await kernel.execute({ name: "ok__cancellations", arguments: {} })).output).toBe("1"), WAIT);
    expect((await kernel.execute({ name: "ok__echo", arguments: { text: "next" } })).output).toBe("next");
  });

  it("cancels a call on the server at the caller's time limit, and says so in its own words", async () => {
    const before = Number((await kernel.execute({ name: "ok__cancellations", arguments: {} })).output);
    expect(await kernel.execute({ name: "ok__hang", arguments: {} }, { timeoutMs: 300 })).toMatchObject({
      output: 'MCP server "ok": hang did not finish within the call\'s time limit, so weft cancelled it on the server',
      isError: true,
      metadata: { timedOut: true },
    });
    await vi.waitFor(async () => expect(Number((await kernel.execute({ name: "ok__cancellations", arguments: {} })).output)).toBe(before + 1), WAIT);
  });

  it("declares the hard limit it keeps (callTimeout, 1 hour by default) and holds a call that keeps reporting progress to it", async () => {
    expect(kernel.tools.get("ok__ticker")?.timeoutMs).toBe(3_600_000);
    expect(kernel.tools.get("bounded__ticker")?.timeoutMs).toBe(1500);
    // Progress every 50 ms keeps the quiet-time ceiling (2 minutes) from ever firing: only callTimeout ends it.
    let progressed = 0;
    const result = await kernel.execute({ name: "bounded__ticker", arguments: { ticks: 100_000, intervalMs: 50 } }, { onProgress: () => progressed++ });
    expect(result).toMatchObject({
      output: 'MCP server "bounded": ticker did not finish within the call\'s time limit, so weft cancelled it on the server',
      isError: true,
      metadata: { timedOut: true },
    });
    expect(progressed).toBeGreaterThan(0);
  });

  it("matches concurrent calls by id", async () => {
    const texts = ["one", "two", "three", "four"];
    const results = await Promise.all([
      kernel.execute({ name: "ok__ticker", arguments: { ticks: 3, intervalMs: 30 } }),
      ...texts.map((text) => kernel.execute({ name: "ok__echo", arguments: { text } })),
    ]);
    expect(results.map((result) => result.output)).toEqual(["ticked 3 times", ...texts]);
  });

  it("reports and skips stdout lines that are not JSON-RPC, and keeps reading the messages around them", async () => {
    expect((await kernel.execute({ name: "noisy__echo", arguments: { text: "après le bruit ✓" } })).output).toBe("APRÈS LE BRUIT ✓");
    expect((await kernel.execute({ name: "noisy__echo", arguments: { text: "still reading" } })).output).toBe("STILL READING");
    const debug = logger.lines.filter((line) => line.level === "debug" && line.message.startsWith("mcp noisy: ")).map((line) => line.message);
    expect(debug.filter((line) => line === 'mcp noisy: not a JSON-RPC message: {"level":"info","msg":"noise"}')).toHaveLength(2);
    expect(debug.filter((line) => line.includes('"plain log line" is not valid JSON'))).toHaveLength(2);
  });

  it("drains a server that floods stderr: ten 200 KB calls in a row succeed", async () => {
    for (let call = 0; call < 10; call++) {
      expect((await kernel.execute({ name: "ok__chatty", arguments: {} })).output).toBe("done talking");
    }
  });
});

describe("a server that dies mid-call", () => {
  let kernel: Kernel;
  const recorder = feedbackRecorder();

  beforeAll(async () => {
    kernel = await createTestKernel([recorder.plugin, [mcp, { config: { mcpServers: { crashy: stdio("test") } } }]], { logger: memoryLogger() });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("fails its pending calls at once, removes its tools, reports the exit code and last stderr lines, and is replaced on start", async () => {
    const died = 'MCP server "crashy": connection lost during crash (exited with code 3); its tools are unavailable until it is started again';
    const hanging = kernel.execute({ name: "crashy__hang", arguments: {} });
    const crashed = await kernel.execute({ name: "crashy__crash", arguments: {} });
    expect(crashed).toMatchObject({ output: died, isError: true });
    expect(await hanging).toMatchObject({ output: died.replace("during crash", "during hang"), isError: true });

    const host = mcpHost(kernel);
    expect(host.status()).toEqual([
      { name: "crashy", state: "failed", tools: 0, error: "exited with code 3", exitCode: 3, stderr: ["about to crash", "fatal: simulated failure"] },
    ]);
    expect(kernel.tools.get("crashy__echo")).toBeUndefined();
    const events = recorder.events.filter((event): event is Extract<FeedbackEvent, { type: "mcp.status" | "mcp.tools-changed" }> => event.type.startsWith("mcp."));
    expect(events.at(-2)).toEqual({ type: "mcp.status", server: "crashy", state: "failed", tools: 0, error: "exited with code 3" });
    expect(events.at(-1)).toMatchObject({ type: "mcp.tools-changed", server: "crashy", added: [], removed: expect.arrayContaining(["crashy__echo"]) });

    expect(await host.start("crashy")).toEqual({ name: "crashy", state: "connected", tools: 11, protocol: "2025-11-25" });
    expect((await kernel.execute({ name: "crashy__echo", arguments: { text: "back" } })).output).toBe("back");
  });
});

describe("notifications/tools/list_changed", () => {
  let kernel: Kernel;
  let logger: MemoryLogger;
  const recorder = feedbackRecorder();

  beforeAll(async () => {
    logger = memoryLogger();
    kernel = await createTestKernel([recorder.plugin, [mcp, { config: { mcpServers: { lc: stdio("test") } } }]], { logger });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("re-lists the server's tools, swaps them in the registry and says what changed", async () => {
    expect(kernel.tools.get("lc__extra")).toBeUndefined();
    await kernel.execute({ name: "lc__add-tool", arguments: {} });
    await vi.waitFor(() => expect(kernel.tools.get("lc__extra")).toBeDefined(), WAIT);
    expect(recorder.events).toContainEqual({ type: "mcp.tools-changed", server: "lc", added: ["lc__extra"], removed: [] });
    expect((await kernel.execute({ name: "lc__extra", arguments: {} })).output).toBe("called extra");
    expect(mcpHost(kernel).status()[0]).toEqual({ name: "lc", state: "connected", tools: 12, protocol: "2025-11-25" });
  });

  it("keeps the old tools when the re-list fails", async () => {
    await kernel.execute({ name: "lc__break-listing", arguments: {} });
    await vi.waitFor(() => expect(logger.warnings().some((line) => line.startsWith('MCP server "lc" changed its tools, but listing them again failed (the old ones stay)'))).toBe(true), WAIT);
    expect(kernel.tools.get("lc__extra")).toBeDefined();
    expect((await kernel.execute({ name: "lc__echo", arguments: { text: "ok" } })).output).toBe("ok");
  });
});

describe("process groups", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "weft-mcp-group-"));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("close stops what the server spawned too", async () => {
    const pidFile = join(dir, "grandchild.pid");
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { parent: stdio("test", `--spawn-child=${pidFile}`) } } }]]);
    const grandchild = Number(await readFile(pidFile, "utf8"));
    expect(alive(grandchild)).toBe(true);
    await kernel.close();
    // SIGKILL has been sent to the whole group; the kernel reports the death a moment later.
    await vi.waitFor(() => expect(alive(grandchild)).toBe(false), WAIT);
  }, 60_000);
});
