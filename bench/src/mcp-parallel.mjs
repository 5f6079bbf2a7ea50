/**
 * MCP parallel start: the time from nothing to tools listed, with 1 server and with 3 started at
 * once, through weft's MCP plugin (a kernel, the plugin with an mcp.json, `ready()`) and, as the
 * floor, through the official MCP client alone. Runs alternate 1 and 3; medians of REPEATS each.
 *
 *   node mcp-parallel.mjs <out.json> '{"mcpServer": {"command", "args"}}'
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { summarize } from "./stats.mjs";

const [outFile, configText] = process.argv.slice(2);
const { mcpServer } = JSON.parse(configText);
const REPEATS = 10;
const NAMES = ["alpha", "beta", "gamma"];
const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** weft: a kernel with the MCP plugin and an mcp.json of `count` servers; resolves when all are listed. */
async function weftStart(count) {
  const [{ createKernel }, { default: mcpPlugin }] = await Promise.all([import("@weft/core"), import("@weft/plugin-mcp")]);
  const started = performance.now();
  const kernel = createKernel({ logger: silent });
  const mcpServers = Object.fromEntries(NAMES.slice(0, count).map((name) => [name, { command: mcpServer.command, args: mcpServer.args }]));
  await kernel.use(mcpPlugin, { config: { mcpServers } });
  await kernel.ready();
  const elapsed = performance.now() - started;
  const tools = kernel.tools.list().length;
  await kernel.close();
  if (tools !== 3 * count) throw new Error(`weft listed ${tools} tools from ${count} servers; expected ${3 * count}`);
  return elapsed;
}

/** The floor: official clients only, connected and listed in parallel. */
async function floorStart(count) {
  const started = performance.now();
  const clients = await Promise.all(
    NAMES.slice(0, count).map(async (name) => {
      const client = new Client({ name, version: "1.0.0" });
      await client.connect(new StdioClientTransport({ command: mcpServer.command, args: mcpServer.args, stderr: "ignore" }));
      await client.listTools();
      return client;
    }),
  );
  const elapsed = performance.now() - started;
  await Promise.all(clients.map((client) => client.close()));
  return elapsed;
}

async function compare(start) {
  await start(1); // warm the module cache and the disk
  const one = [];
  const three = [];
  for (let i = 0; i < REPEATS; i++) {
    one.push(await start(1));
    three.push(await start(3));
  }
  const oneServerMs = summarize(one).p50;
  const threeServersMs = summarize(three).p50;
  return { ok: true, oneServerMs, threeServersMs, ratio: threeServersMs / oneServerMs };
}

const result = { ok: false, repeats: REPEATS };
for (const [key, start] of [["weft", weftStart], ["floor", floorStart]]) {
  try {
    result[key] = await compare(start);
  } catch (error) {
    result[key] = { ok: false, error: String(error?.stack ?? error).slice(0, 1500) };
  }
}
result.ok = result.weft.ok && result.floor.ok;
writeFileSync(outFile, JSON.stringify(result));
process.exit(0);
