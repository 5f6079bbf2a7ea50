import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type McpServerConfig } from "@weft/sdk";
import { defined, recordingMcpHost, standInOnPath, testKernels, waitForProcessExit } from "@weft/testing";
import mcpPlugin from "@weft/plugin-mcp";
import webPlugin, { donsetchMcpConfig } from "./index.js";

const STAND_IN = fileURLToPath(new URL("./test-fixtures/donsetch-stand-in.mjs", import.meta.url));

describe("web pack backed by DonSeTch", () => {
  // The stand-in `donsetch` records its command line and pid, then becomes the MCP server.
  const standIn = standInOnPath("donsetch", STAND_IN, { beforeAll, afterAll });
  const open = testKernels(afterEach);

  it("starts `donsetch mcp` through the MCP host and registers its three tools with a 15-minute ceiling", async () => {
    const seen: { name: string; config: McpServerConfig }[] = [];
    const kernel = await open([mcpPlugin, recordingMcpHost(seen), webPlugin]);
    expect(kernel.tools.list().map((tool) => [tool.name, tool.source])).toEqual([
      ["donsetch__web_crawl", { kind: "mcp", id: "donsetch" }],
      ["donsetch__web_fetch", { kind: "mcp", id: "donsetch" }],
      ["donsetch__web_search", { kind: "mcp", id: "donsetch" }],
    ]);
    expect(seen).toEqual([{ name: "donsetch", config: { command: "donsetch", args: ["mcp"], toolTimeout: 900_000 } }]);
    expect(await standIn.argv()).toEqual(["mcp"]);
    const result = await kernel.execute({ name: "donsetch__web_search", arguments: { query: "weft" } });
    expect(result.output).toBe('web_search {"query":"weft"}');
  });

  it("stops the server and takes its tools out when the pack's handle is closed", async () => {
    const kernel = await open([mcpPlugin]);
    const handle = await kernel.use(webPlugin, {});
    expect(kernel.tools.list()).toHaveLength(3);
    const pid = await standIn.pid();
    await handle.close();
    expect(kernel.tools.list()).toEqual([]);
    expect(await waitForProcessExit(pid, 10_000)).toBe(true);
  });

  it("hands the drop map to the server as its tools filter", async () => {
    const seen: { name: string; config: McpServerConfig }[] = [];
    const kernel = await open([mcpPlugin, recordingMcpHost(seen), [webPlugin, { tools: { donsetch__web_crawl: false, web_fetch: false } }]]);
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["donsetch__web_fetch", "donsetch__web_search"]);
    expect(seen[0]?.config.tools).toEqual(["!web_crawl"]);
  });

  it("warns and serves the native tools when the MCP plugin is not enabled", async () => {
    const logger = memoryLogger();
    const kernel = await open([webPlugin], { logger });
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["web_crawl", "web_fetch"]);
    expect(logger.warnings()).toEqual([
      `@weft/plugin-web: donsetch is on PATH (${standIn.bin}/donsetch) but @weft/plugin-mcp is not enabled, so the native web tools are used; ` +
        "enable mcp before web (plugins: [mcp, web]) to search and fetch through DonSeTch, or set backend: native",
    ]);
  });

  it("insists on DonSeTch with backend: donsetch", async () => {
    await expect(open([[webPlugin, { backend: "donsetch" }]])).rejects.toMatchObject({
      code: "SERVICE_MISSING",
      message: '@weft/plugin-web needs the "mcp" service: enable @weft/plugin-mcp (plugins: [mcp])',
    });
    await standIn.offPath(() =>
      expect(open([mcpPlugin, [webPlugin, { backend: "donsetch" }]])).rejects.toMatchObject({
        code: "PLUGIN_SETUP_FAILED",
        message: '@weft/plugin-web: backend "donsetch" needs the donsetch executable on PATH; install it (npm install -g donsetch) or set backend: native',
      }),
    );
  });

  it("keeps to the native tools with backend: native or builtins: true", async () => {
    const native = await open([mcpPlugin, [webPlugin, { backend: "native" }]]);
    expect(native.tools.list().map((tool) => tool.name)).toEqual(["web_crawl", "web_fetch"]);
    const builtins = await open([mcpPlugin, [webPlugin, { builtins: true }]]);
    expect(builtins.tools.list().map((tool) => tool.name)).toEqual(["webfetch"]);
  });

  it("gives a fresh config each time", () => {
    const config = donsetchMcpConfig();
    defined(config.args).push("--supervised");
    expect(donsetchMcpConfig()).toEqual({ command: "donsetch", args: ["mcp"], toolTimeout: 900_000 });
  });
});
