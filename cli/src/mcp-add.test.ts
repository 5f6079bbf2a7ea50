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

  it("writes --env into a command server and --header into a URL server; the server runs with that environment", async () => {
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-add-env-")));
    try {
      await writeFile(path.join(dir, "weft.config.yaml"), "plugins: []\n");
      const memory = `${WORKSPACE_MODULES}@modelcontextprotocol/server-memory/dist/index.js`;
      const store = path.join(dir, "memory.jsonl");
      expect(await weft(dir, ["mcp", "add", "memory", "--env", `MEMORY_FILE_PATH=${store}`, "--env", "SPACED= kept as typed", "--", process.execPath, memory])).toMatchObject({ code: 0 });
      expect(await weft(dir, ["mcp", "add", "docs", "--url", "https://example.com/mcp", "--header", "Authorization: Bearer ${DOCS_TOKEN}", "--header", "X-Team:core"])).toMatchObject({ code: 0 });
      expect(JSON.parse(await readFile(path.join(dir, ".mcp.json"), "utf8"))).toEqual({
        mcpServers: {
          memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: store, SPACED: " kept as typed" } },
          docs: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}", "X-Team": "core" } },
        },
      });
      expect(await weft(dir, ["mcp", "add", "bad", "--env", "NOVALUE", "--", "true"])).toEqual({
        code: 2,
        stdout: "",
        stderr: 'weft mcp: --env "NOVALUE" is not KEY=VALUE\nusage: weft mcp list | start <server> | stop <server> | login <server> | logout <server> | add <name> (--url <url> | -- <command> [args...]) | serve [--http [--host <addr>] [--port <n>]] [options]\n(weft help mcp for the options)\n',
      });
      expect(await weft(dir, ["mcp", "add", "bad", "--header", "Authorization: x", "--", "true"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--header is for a URL server (--url); a command server takes --env") });
      expect(await weft(dir, ["mcp", "add", "bad", "--env", "A=1", "--url", "https://example.com/mcp"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--env is for a command server; a URL server takes --header") });

      // The URL server is unreachable; only the memory server is kept for the call.
      const file = JSON.parse(await readFile(path.join(dir, ".mcp.json"), "utf8"));
      delete file.mcpServers.docs;
      await writeFile(path.join(dir, ".mcp.json"), JSON.stringify(file));
      const tools = JSON.parse((await weft(dir, ["tools", "--json"])).stdout) as { name: string }[];
      const create = tools.find((tool) => tool.name.endsWith("create_entities"))?.name;
      expect(create).toBeDefined();
      const entities = { entities: [{ name: "weft", entityType: "toolkit", observations: ["added with --env"] }] };
      expect(await weft(dir, ["call", String(create), JSON.stringify(entities)])).toMatchObject({ code: 0 });
      // The server wrote its store where the --env variable said.
      expect(await readFile(store, "utf8")).toContain('"name":"weft"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
