import { createServer, type Server } from "node:http";
import { once } from "node:events";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, memoryLogger } from "@weft/sdk";
import { createToolkit, loadProject } from "@weft/core";
import endpoints from "./index.js";

const modules = fileURLToPath(new URL("../../../node_modules/", import.meta.url));
const memoryServer = { command: process.execPath, args: [`${modules}@modelcontextprotocol/server-memory/dist/index.js`] };
const listed = (options?: Record<string, unknown>) => [{ plugin: endpoints, options }];

describe("weft-plugin-endpoints, a third-party tool source", () => {
  let http: Server;
  let base: string;
  beforeAll(async () => {
    http = createServer((req, res) => (req.url === "/status" ? res.end("all systems go") : res.writeHead(503).end("down for maintenance")));
    http.listen(0, "127.0.0.1");
    await once(http, "listening");
    base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise((resolve) => http.close(resolve)));
  const endpoint = (route: string, description = `GET ${route}`) => ({ url: `${base}${route}`, description });

  it("reads its endpoints: key and runs each tool through the toolkit's execute path", async () => {
    const toolkit = await createToolkit({ builtins: false, endpoints: { status: endpoint("/status", "The service status") }, plugins: listed(), logger: memoryLogger() });
    expect(toolkit.tools.map(({ name, description, source }) => ({ name, description, source }))).toEqual([
      { name: "status", description: "The service status", source: { kind: "pack", id: "weft-plugin-endpoints" } },
    ]);
    expect(await toolkit.execute({ name: "status", arguments: {} })).toEqual({ output: "all systems go" });
    await toolkit.close();
  });

  it("ranks as a source: an MCP server beats it, it beats skills, the built-ins and the host, whatever order they set up in", async () => {
    const logger = memoryLogger();
    const toolkit = await createToolkit({
      mcp: { mcpServers: { memory: memoryServer } },
      // Skills register at setup, before any source's tools hook: registration order alone would pick them.
      skills: [{ name: "notes", description: "Take notes", content: "Write them down." }],
      endpoints: { memory__read_graph: endpoint("/status"), skill_load: endpoint("/status"), read: endpoint("/status"), deploy: endpoint("/status") },
      extraTools: [defineTool({ name: "deploy", description: "the host's", input: Type.Object({}), execute: () => "host" })],
      plugins: listed(),
      logger,
    });
    expect(logger.warnings().sort()).toEqual([
      'tool "deploy" from the application dropped: plugin weft-plugin-endpoints already provides it',
      'tool "memory__read_graph" from plugin weft-plugin-endpoints dropped: MCP server memory already provides it',
      'tool "read" from built-in of @weft/plugin-files dropped: plugin weft-plugin-endpoints already provides it',
      'tool "skill_load" from skill collection skills dropped: plugin weft-plugin-endpoints already provides it',
    ]);
    const sourceOf = (name: string) => toolkit.tools.find((tool) => tool.name === name)?.source;
    expect([sourceOf("memory__read_graph"), sourceOf("skill_load"), sourceOf("read"), sourceOf("deploy")]).toEqual([
      { kind: "mcp", id: "memory" },
      ...Array(3).fill({ kind: "pack", id: "weft-plugin-endpoints" }),
    ]);
    expect((await toolkit.execute({ name: "read", arguments: {} })).output).toBe("all systems go");
    await toolkit.close();
  });

  it("applies the plugin once when both the key and a plugins entry configure it", async () => {
    const toolkit = await createToolkit({ builtins: false, endpoints: { status: endpoint("/status"), broken: endpoint("/broken") }, plugins: listed({ only: ["broken"] }), logger: memoryLogger() });
    expect(toolkit.kernel.plugins().map((plugin) => plugin.name)).toEqual(["weft-plugin-endpoints"]);
    expect(await toolkit.execute({ name: "broken", arguments: {} })).toEqual({ output: `broken: ${base}/broken answered 503: down for maintenance`, isError: true });
    expect(toolkit.tools.map((tool) => tool.name)).toEqual(["broken"]);
    await toolkit.close();
  });

  it("needs the plugin listed to own its key, and validates the key's value with the plugin's schema", async () => {
    await expect(createToolkit({ builtins: false, endpoints: {}, logger: memoryLogger() })).rejects.toMatchObject({
      code: "CONFIG_INVALID",
      message: expect.stringMatching(/^unknown option "endpoints"; known options: .*\(a third-party plugin's own key needs the plugin listed under plugins\)$/),
    });
    await expect(createToolkit({ builtins: false, endpoints: { status: { url: 42, description: "x" } }, plugins: listed(), logger: memoryLogger() })).rejects.toMatchObject({
      code: "PLUGIN_OPTIONS_INVALID",
      message: 'invalid options for the "endpoints" key of weft-plugin-endpoints: /status/url must be string',
    });
  });

  it("takes its key from weft.config.yaml, with errors on the key's line", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "weft-endpoints-"));
    const plugin = fileURLToPath(new URL("./index.ts", import.meta.url));
    try {
      await writeFile(path.join(dir, "weft.config.yaml"), `plugins:\n  - ${plugin}\nendpoints:\n  status: { url: "${base}/status", description: Status }\n`);
      const project = await loadProject({ cwd: dir, logger: memoryLogger() });
      expect(project.toolkit.tools.map((tool) => tool.name)).toEqual(["status"]);
      expect((await project.toolkit.execute({ name: "status", arguments: {} })).output).toBe("all systems go");
      await project.toolkit.close();
      await writeFile(path.join(dir, "weft.config.yaml"), `plugins:\n  - ${plugin}\nendpoints:\n  status: { url: 7, description: Status }\n`);
      await expect(loadProject({ cwd: dir, logger: memoryLogger() })).rejects.toMatchObject({
        message: `${dir}/weft.config.yaml:4:18 (option endpoints.status.url): invalid option for the "endpoints" key of weft-plugin-endpoints: must be string`,
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
