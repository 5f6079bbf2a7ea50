import { createServer } from "node:http";
import { once } from "node:events";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, memoryLogger } from "@weft/sdk";
import { waitForProcessExit } from "@weft/sdk/testing";
import { createToolkit } from "./toolkit.js";

const modules = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
const server = (name: string) => ({ command: process.execPath, args: [`${modules}@modelcontextprotocol/server-${name}/dist/index.js`] });

describe("createToolkit with MCP servers and agents", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "weft-toolkit-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("registers MCP tools in config order of servers, and the MCP server wins a name over the host", async () => {
    const logger = memoryLogger();
    const clash = defineTool({ name: "zeta__read_graph", description: "the host's", input: Type.Object({}), execute: () => ({ output: "host" }) });
    const toolkit = await createToolkit({
      builtins: false,
      mcpConfig: { mcpServers: { zeta: server("memory"), alpha: server("everything") } },
      extraTools: [clash],
      logger,
    });
    const servers = toolkit.kernel.tools.registrations().map((tool) => tool.source.id);
    expect(servers.indexOf("zeta")).toBe(0);
    expect(servers.lastIndexOf("zeta")).toBeLessThan(servers.indexOf("alpha"));
    expect(toolkit.mcpStatus().map((status) => [status.name, status.state])).toEqual([
      ["zeta", "connected"],
      ["alpha", "connected"],
    ]);
    expect(logger.warnings()).toContain('tool "zeta__read_graph" from the application dropped: MCP server zeta already provides it');
    expect((await toolkit.execute({ name: "zeta__read_graph", arguments: {} })).output).toContain('"entities"');
    await toolkit.close();
    expect(toolkit.mcpStatus().every((status) => status.state === "stopped")).toBe(true);
  });

  it("rejects a bad mcpConfig path with a typed error the application can catch", async () => {
    await expect(createToolkit({ builtins: false, mcpConfig: path.join(dir, "missing.json"), logger: memoryLogger() })).rejects.toMatchObject({
      code: "MCP_CONFIG_INVALID",
      message: expect.stringContaining("missing.json"),
    });
    await expect(createToolkit({ builtins: false, mcpConfig: "{ not json", logger: memoryLogger() })).rejects.toMatchObject({ code: "MCP_CONFIG_INVALID" });
  });

  it("stops a server that hangs when the deadline passes, leaving nothing running", async () => {
    const pidFile = path.join(dir, "hung.pid");
    const hang = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); process.stdin.resume(); setInterval(() => {}, 60000);`;
    await expect(
      createToolkit({
        builtins: false,
        mcpConfig: { mcpServers: { memory: server("memory"), stuck: { command: process.execPath, args: ["-e", hang], timeout: 60_000 } } },
        deadline: 1500,
        logger: memoryLogger(),
      }),
    ).rejects.toMatchObject({
      code: "DEADLINE_EXCEEDED",
      // On a loaded machine the healthy server may still be starting too; the hung one is always named.
      message: expect.stringMatching(
        /^the toolkit did not load within its deadline of 1500 ms \(still loading: @weft\/plugin-mcp \(servers (memory, )?stuck\)\); everything started was stopped$/,
      ),
    });
    expect(await waitForProcessExit(Number(await readFile(pidFile, "utf8")))).toBe(true);
  });

  it("warns about an agent card that cannot be fetched and loads the rest", async () => {
    const http = createServer((_req, res) => res.writeHead(404).end("no card here"));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    const { port } = http.address() as { port: number };
    const logger = memoryLogger();
    const toolkit = await createToolkit({
      builtins: { tools: { bash: false } },
      agents: [{ card: `http://127.0.0.1:${port}/.well-known/agent-card.json`, name: "helper" }],
      logger,
    });
    expect(toolkit.tools.map((tool) => tool.name)).toContain("read");
    expect(toolkit.tools.some((tool) => tool.source.kind === "a2a")).toBe(false);
    expect(logger.warnings()).toHaveLength(1);
    expect(logger.warnings()[0]).toMatch(/helper/);
    await toolkit.close();
    http.close();
  });
});
