import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { weft, WORKSPACE_MODULES } from "./test-fixtures/weft-process.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The MCP issue's "done when": a project whose mcp.json names server-everything and server-filesystem.
describe("weft with mcp: ./mcp.json", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-cli-")));
    await mkdir(path.join(project, "files"));
    await writeFile(path.join(project, "files/hello.txt"), "hello from the filesystem server\n");
    const server = (name: string) => `${WORKSPACE_MODULES}@modelcontextprotocol/server-${name}/dist/index.js`;
    await writeFile(
      path.join(project, "mcp.json"),
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [server("everything")] },
          filesystem: { command: process.execPath, args: [server("filesystem"), path.join(project, "files")] },
          broken: { command: "weft-no-such-server" },
        },
      }),
    );
    await writeFile(path.join(project, "weft.config.yaml"), "mcp: ./mcp.json\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("lists both servers' tools and calls one", async () => {
    const tools = JSON.parse((await weft(project, ["tools", "--json"])).stdout) as { name: string; source: string }[];
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("everything__get-sum");
    expect(names).toContain("filesystem__read_text_file");
    expect(tools.find((tool) => tool.name === "everything__get-sum")?.source).toBe("mcp:everything");
    expect(await weft(project, ["call", "everything__get-sum", '{"a":1,"b":2}'])).toMatchObject({ code: 0, stdout: "The sum of 1 and 2 is 3.\n" });
    const read = await weft(project, ["call", "filesystem__read_text_file", JSON.stringify({ path: path.join(project, "files/hello.txt") })]);
    expect(read).toEqual({ code: 0, stdout: "hello from the filesystem server\n", stderr: expect.any(String) });
  });

  it("weft mcp list shows each server's state, a failed one with its reason", async () => {
    const result = await weft(project, ["mcp", "list"]);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^SERVER\s+STATE\s+TOOLS\s+ERROR$/);
    expect(lines[1]).toMatch(/^everything\s+connected\s+\d+/);
    expect(lines[2]).toMatch(/^filesystem\s+connected\s+\d+/);
    expect(lines[3]).toMatch(/^broken\s+failed\s+0\s+\S/);
  });

  it("weft mcp stop takes one server's tools away and keeps the rest", async () => {
    const result = await weft(project, ["mcp", "stop", "everything", "--json"]);
    const statuses = JSON.parse(result.stdout) as { name: string; state: string; tools: number }[];
    expect(statuses.map((status) => [status.name, status.state])).toEqual([
      ["everything", "stopped"],
      ["filesystem", "connected"],
      ["broken", "failed"],
    ]);
    expect(statuses[0]?.tools).toBe(0);
  });
});
