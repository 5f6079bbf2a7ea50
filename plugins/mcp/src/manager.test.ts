import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { memoryLogger, sanitizeToolName, type FeedbackEvent, type Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { Manager, mcpManager, parseMcpConfig } from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

/** The Manager as the CLI uses it: over a kernel scope's registrar, servers from an mcp.json. */
describe("Manager", () => {
  let kernel: Kernel;
  let manager: Manager;
  let events: FeedbackEvent[];

  beforeEach(async () => {
    kernel = await createTestKernel();
    events = [];
    manager = new Manager({ tools: kernel.scope("mcp-manager").tools, emit: (event) => events.push(event), logger: memoryLogger() });
  });

  afterEach(async () => {
    await manager.close();
    await kernel.close();
  });

  const states = () => manager.status().map(({ name, state }) => `${name}:${state}`);
  const register = (servers: Record<string, unknown>) => {
    for (const spec of parseMcpConfig({ mcpServers: servers })) manager.register(spec);
  };

  it("registers without starting, starts, stops (tools removed, config kept) and starts again", async () => {
    register({ one: stdio("test"), off: { ...stdio("test"), disabled: true } });
    expect(states()).toEqual(["one:stopped", "off:disabled"]);
    await manager.startAll();
    expect(states()).toEqual(["one:connected", "off:disabled"]);
    expect(kernel.tools.get("one__echo")?.source).toEqual({ kind: "mcp", id: "one" });

    expect(await manager.stop("one")).toEqual({ name: "one", state: "stopped", tools: 0 });
    expect(kernel.tools.get("one__echo")).toBeUndefined();
    expect(await manager.start("one")).toEqual({ name: "one", state: "connected", tools: 11, protocol: "2025-11-25" });
    expect((await kernel.execute({ name: "one__echo", arguments: { text: "again" } })).output).toBe("again");

    // Asking for a disabled server by name starts it.
    expect(await manager.start("off")).toMatchObject({ state: "connected" });
    expect(events.filter((event) => event.type === "mcp.status" && event.server === "one").map((event) => (event as { state: string }).state)).toEqual([
      "starting",
      "connected",
      "stopped",
      "starting",
      "connected",
    ]);
  }, 60_000);

  it("joins a start already in progress instead of starting a second process", async () => {
    register({ one: stdio("test") });
    const [first, second] = await Promise.all([manager.start("one"), manager.start("one")]);
    expect(first).toEqual(second);
    expect(events.filter((event) => event.type === "mcp.status" && event.state === "starting")).toHaveLength(1);
  }, 60_000);

  it("stops a server that is still starting", async () => {
    register({ slow: stdio("test", "--hang-handshake") });
    const starting = manager.start("slow");
    expect(states()).toEqual(["slow:starting"]);
    expect(await manager.stop("slow")).toEqual({ name: "slow", state: "stopped", tools: 0 });
    expect(await starting).toEqual({ name: "slow", state: "stopped", tools: 0 });
  }, 60_000);

  it("registers tools in config order, not in the order servers connected", async () => {
    // Both servers' names sanitize to a_b__echo; the first in the config keeps it although it connects last.
    register({ "a.b": stdio("test", "--startup-delay=600"), a_b: stdio("test") });
    await manager.startAll();
    expect(kernel.tools.get("a_b__echo")?.source?.id).toBe("a.b");
    const hashed = sanitizeToolName("a_b__echo", new Set(["a_b__echo"]));
    expect(kernel.tools.get(hashed)?.source?.id).toBe("a_b");
  }, 60_000);

  it("bounds the whole start with a deadline; servers ready in time are kept", async () => {
    register({ quick: stdio("test"), stuck: stdio("test", "--hang-handshake") });
    await manager.startAll({ deadlineMs: 4000 });
    expect(manager.status()).toEqual([
      { name: "quick", state: "connected", tools: 11, protocol: "2025-11-25" },
      { name: "stuck", state: "failed", tools: 0, error: "was not ready before the MCP start deadline (4000 ms)" },
    ]);
  }, 60_000);

  it("honours the caller's AbortSignal", async () => {
    register({ stuck: stdio("test", "--hang-handshake") });
    const controller = new AbortController();
    const starting = manager.start("stuck", { signal: controller.signal });
    controller.abort();
    await expect(starting).rejects.toMatchObject({ code: "ABORTED", message: 'starting MCP server "stuck" was aborted' });
    expect(manager.status()).toEqual([{ name: "stuck", state: "failed", tools: 0, error: "its start was aborted" }]);
  }, 60_000);

  it("wires itself to a scope with mcpManager: its registry, the kernel's feedback", async () => {
    const seen: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void seen.push(event));
    const scope = kernel.scope("mcp-cli");
    const scoped = mcpManager(scope);
    const [spec] = parseMcpConfig({ s: stdio("test") });
    if (!spec) throw new Error("expected one server");
    scoped.register(spec);
    await scoped.start("s");
    expect(kernel.tools.get("s__echo")?.source).toEqual({ kind: "mcp", id: "s" });
    expect(seen).toContainEqual({ type: "mcp.status", server: "s", state: "connected", tools: 11, protocol: "2025-11-25" });
    await scoped.close();
    await scope.dispose();
    expect(kernel.tools.get("s__echo")).toBeUndefined();
  }, 60_000);

  it("says which servers exist when asked for an unknown one", async () => {
    register({ one: stdio("test") });
    await expect(manager.start("two")).rejects.toMatchObject({ code: "MCP_SERVER_UNKNOWN", message: 'no MCP server named "two"; known servers: one' });
  });

  it("is the McpHost: addServer, handle, duplicates, bad configs, close", async () => {
    const handle = await manager.addServer("added", stdio("test"));
    expect(handle.status()).toEqual({ name: "added", state: "connected", tools: 11, protocol: "2025-11-25" });
    expect(handle.toolNames()).toContain("added__echo");
    expect(handle.instructions()).toBe("Use echo to repeat text.");
    await expect(manager.addServer("added", stdio("test"))).rejects.toMatchObject({
      code: "MCP_SERVER_EXISTS",
      message: 'MCP server "added" is already connected; stop it first or choose another name',
    });
    await expect(manager.addServer("bad", { command: "x", args: [1] } as never)).rejects.toMatchObject({
      code: "MCP_CONFIG_INVALID",
      message: 'mcp server "bad": "args" must be an array of strings',
    });
    await expect(manager.addServer("failing", { command: "/nonexistent/weft-no-such-server" })).rejects.toMatchObject({
      code: "MCP_SERVER_FAILED",
      message: `MCP server "failing" failed to start: cannot start "/nonexistent/weft-no-such-server": no such program (or the working directory ${process.cwd()} does not exist); check "command" and "cwd"`,
    });
    await expect(manager.addServer("crashing", stdio("test", "--crash-on-start"))).rejects.toMatchObject({
      code: "MCP_SERVER_FAILED",
      message: 'MCP server "crashing" failed to start: exited with code 2 during the handshake; last stderr lines:\nstarting up\nfatal: no config',
    });
    // A failed name stays in the status and may be added again.
    expect(manager.status().map(({ name, state }) => `${name}:${state}`)).toEqual(["added:connected", "failing:failed", "crashing:failed"]);
    await expect(manager.addServer("failing", { command: "/nonexistent/weft-no-such-server" })).rejects.toMatchObject({ code: "MCP_SERVER_FAILED" });
    await handle.close();
    expect(manager.status().map((server) => server.name)).toEqual(["failing", "crashing"]);
    expect(kernel.tools.get("added__echo")).toBeUndefined();

    await manager.close();
    await expect(manager.addServer("late", stdio("test"))).rejects.toMatchObject({ code: "MCP_SERVER_UNAVAILABLE" });
  }, 60_000);
});
