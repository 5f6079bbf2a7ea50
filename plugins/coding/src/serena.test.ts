import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { McpServerConfig } from "@weft/sdk";
import { defined, recordingMcpHost, standInOnPath, testKernels, waitForProcessExit } from "@weft/testing";
import mcpPlugin from "@weft/plugin-mcp";
import codingPlugin, { serenaMcpConfig } from "./index.js";

const STAND_IN = fileURLToPath(new URL("./test-fixtures/serena-stand-in.mjs", import.meta.url));
const SERENA_ARGS = ["--from", "git+https://github.com/oraios/serena", "serena", "start-mcp-server", "--context", "desktop-app", "--add-mode", "query-projects"];

describe("coding pack backed by Serena", () => {
  // The stand-in `uvx` records its command line and pid, then becomes the MCP server.
  const standIn = standInOnPath("uvx", STAND_IN, { beforeAll, afterAll });
  const open = testKernels(afterEach);

  it("starts Serena with uvx through the MCP host and registers its tools under serena__ with a 360-second ceiling", async () => {
    const seen: { name: string; config: McpServerConfig }[] = [];
    const kernel = await open([mcpPlugin, recordingMcpHost(seen), codingPlugin]);
    expect(kernel.tools.list().map((tool) => [tool.name, tool.source])).toEqual([
      ["serena__find_symbol", { kind: "mcp", id: "serena" }],
      ["serena__initial_instructions", { kind: "mcp", id: "serena" }],
      ["serena__replace_symbol_body", { kind: "mcp", id: "serena" }],
    ]);
    expect(seen).toEqual([{ name: "serena", config: { command: "uvx", args: SERENA_ARGS, toolTimeout: 360_000, timeout: 600_000 } }]);
    expect((await standIn.argv())).toEqual(SERENA_ARGS);
    const result = await kernel.execute({ name: "serena__find_symbol", arguments: { name_path: "Kernel/use" } });
    expect(result.output).toBe('find_symbol {"name_path":"Kernel/use"}');
  });

  it("works whichever of mcp and coding comes first, and stops Serena when its handle is closed", async () => {
    const kernel = await open([[codingPlugin, { from: "git+https://github.com/oraios/serena@v0.1.4", tools: { serena__replace_symbol_body: false } }], mcpPlugin]);
    const handle = defined(kernel.plugins().find((plugin) => plugin.name === "@weft/plugin-coding"));
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["serena__find_symbol", "serena__initial_instructions"]);
    expect((await standIn.argv())[1]).toBe("git+https://github.com/oraios/serena@v0.1.4");
    const pid = await standIn.pid();
    await handle.close();
    expect(kernel.tools.list()).toEqual([]);
    expect(await waitForProcessExit(pid, 10_000)).toBe(true);
  });

  it("says what to enable when the MCP plugin is missing", async () => {
    await expect(open([codingPlugin])).rejects.toMatchObject({
      code: "SERVICE_MISSING",
      message: '@weft/plugin-coding needs the "mcp" service: enable @weft/plugin-mcp (plugins: [mcp])',
    });
  });

  it("fails clearly when uvx is not on PATH", async () => {
    await standIn.offPath(() =>
      expect(open([mcpPlugin, codingPlugin])).rejects.toMatchObject({
        code: "PLUGIN_SETUP_FAILED",
        message:
          "@weft/plugin-coding starts Serena with uvx, which is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), " +
          "or enable the pack with builtins: true for apply_patch alone",
      }),
    );
  });

  it("gives a fresh config each time, with --from to pin", () => {
    defined(serenaMcpConfig().args).push("--extra");
    expect(serenaMcpConfig()).toEqual({ command: "uvx", args: SERENA_ARGS, toolTimeout: 360_000, timeout: 600_000 });
    expect(defined(serenaMcpConfig("git+https://github.com/oraios/serena@v1").args)[1]).toBe("git+https://github.com/oraios/serena@v1");
  });
});
