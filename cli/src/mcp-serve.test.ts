import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport, getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEFT_BIN, weft } from "./test-fixtures/weft-process.js";

// The SDK starts its child with a default environment of its own: the suite's cache folder goes along,
// so the child's config parse is not kept in the user's home.
const CACHE_ENV = { WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR ?? "" };

// `weft mcp serve` as the MCP clients people run launch it: a child process speaking stdio.
describe("weft mcp serve", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-serve-")));
    await mkdir(path.join(project, "skills/greeting"), { recursive: true });
    await writeFile(path.join(project, "skills/greeting/SKILL.md"), "---\nname: greeting\ndescription: Greet people warmly\n---\nSay hello by name.\n");
    await writeFile(path.join(project, "weft.config.yaml"), "skills: [./skills]\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("serves the project's tools, skills catalog and skill prompts to the official SDK's Client over stdio", async () => {
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [WEFT_BIN, "mcp", "serve"], cwd: project, stderr: "pipe", env: { ...getDefaultEnvironment(), ...CACHE_ENV } }));
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toEqual(["skill_execute_file", "skill_load", "skill_load_file"]);
      expect(client.getInstructions()).toContain("<name>greeting</name>");
      expect((await client.listPrompts()).prompts).toEqual([{ name: "greeting", description: "Greet people warmly" }]);
      expect(await client.callTool({ name: "skill_load", arguments: { skill_name: "greeting" } })).toMatchObject({
        content: [{ type: "text", text: expect.stringContaining("Say hello by name.") }],
      });
    } finally {
      await client.close();
    }
  });

  it("is an MCP server another weft project can use", async () => {
    const outer = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-outer-")));
    try {
      await writeFile(
        path.join(outer, "mcp.json"),
        JSON.stringify({ mcpServers: { inner: { command: process.execPath, args: [WEFT_BIN, "mcp", "serve", "--config", path.join(project, "weft.config.yaml")], env: CACHE_ENV } } }),
      );
      await writeFile(path.join(outer, "weft.config.yaml"), "mcp: ./mcp.json\n");
      const called = await weft(outer, ["call", "inner__skill_load", '{"skill_name":"greeting"}']);
      expect(called.code).toBe(0);
      expect(called.stdout).toContain("Say hello by name.");
    } finally {
      await rm(outer, { recursive: true, force: true });
    }
  });

  it("refuses --port without --http, naming the flag", async () => {
    expect(await weft(project, ["mcp", "serve", "--port", "8080"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--host and --port go with --http") });
  });
});
