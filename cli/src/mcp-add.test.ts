import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft, WORKSPACE_MODULES } from "./test-fixtures/weft-process.js";

// Claude Code's project convention: .mcp.json at the root, used when weft.config.yaml has no mcp: key.
describe("weft mcp add and the project's .mcp.json", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-add-")));
    await writeFile(path.join(project, "weft.config.yaml"), "plugins: []\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("writes a command server and a URL server, refusing a duplicate name without --force", async () => {
    const memory = `${WORKSPACE_MODULES}@modelcontextprotocol/server-memory/dist/index.js`;
    expect(await weft(project, ["mcp", "add", "memory", "--", process.execPath, memory])).toEqual({ code: 0, stderr: "", stdout: `added memory to ${project}/.mcp.json\n` });
    expect(await weft(project, ["mcp", "add", "docs", "--url", "https://example.com/mcp"])).toMatchObject({ code: 0 });
    expect(JSON.parse(await readFile(path.join(project, ".mcp.json"), "utf8"))).toEqual({
      mcpServers: { memory: { command: process.execPath, args: [memory] }, docs: { type: "http", url: "https://example.com/mcp" } },
    });
    expect(await weft(project, ["mcp", "add", "docs", "--url", "https://other.example/mcp"])).toEqual({
      code: 1,
      stdout: "",
      stderr: `weft: ${project}/.mcp.json already has a server "docs"; use --force to replace it\n`,
    });
    expect(await weft(project, ["mcp", "add", "nothing"])).toMatchObject({ code: 2, stderr: expect.stringContaining("give the server's command after --, or --url <url>") });
  });

  it("loads .mcp.json when mcp: is absent", async () => {
    await writeFile(path.join(project, ".mcp.json"), JSON.stringify({ mcpServers: { memory: { command: process.execPath, args: [`${WORKSPACE_MODULES}@modelcontextprotocol/server-memory/dist/index.js`] } } }));
    const tools = await weft(project, ["tools", "--json"]);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).map((tool: { source: string }) => tool.source)).toContain("mcp:memory");
  });
});
