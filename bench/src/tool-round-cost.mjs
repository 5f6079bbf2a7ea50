/**
 * What one MCP tool call costs the client process: rounds of N `add` calls at once through weft's
 * execute path (a kernel session with @weft/plugin-mcp), through the official MCP client alone, 1.x
 * (`@modelcontextprotocol/sdk`, the `floor` row's) and 2.x (`@modelcontextprotocol/client`, the library
 * under weft's MCP plugin, taken from the workspace when it has one), and through the minimal JSON-RPC
 * client (src/mcp-rpc-client.mjs, the floor), alternating round by round in this one process, each on an
 * MCP server of its own; plus `native`: the same session's execute path running a tool that answers at
 * once, which is what the execute path costs without MCP. Reported is the median CPU time (user +
 * system) per call. No model is involved: this is the tool round alone, the part the `parallel` scale row
 * grows in; the client columns say how much of weft's cost over the floor is the protocol library's.
 *
 *   node src/tool-round-cost.mjs [--rounds 400] [--calls 1,10,100]
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createKernel } from "@weft/core";
import mcpPlugin from "@weft/plugin-mcp";
import { defineTool } from "@weft/sdk";
import { Type } from "@weft/sdk/typebox";
import { connectRpc } from "./mcp-rpc-client.mjs";
import { summarize } from "./stats.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { rounds: { type: "string", default: "400" }, calls: { type: "string", default: "1,10,100" } } });
const server = { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const kernel = createKernel({ logger: silent });
await kernel.use(mcpPlugin, { config: { mcpServers: { bench: server } } });
const add = defineTool({ name: "add", description: "Adds", input: Type.Object({ a: Type.Number(), b: Type.Number() }), execute: ({ a, b }) => ({ output: String(a + b) }) });
await kernel.use({ meta: { name: "bench-native", version: "1.0.0", api: 1 }, setup: (api) => void api.tools.add(add) });
await kernel.ready();
const session = await kernel.session({ id: "cost" });
const rpc = await connectRpc(server);
const official = new Client({ name: "bench-tool-round", version: "1.0.0" });
await official.connect(new StdioClientTransport({ ...server, stderr: "ignore" }));
// The 2.x client weft bundles: the workspace's copy (bench/node_modules may hold an older 2.x).
const workspaceClient = join(srcDir, "../../node_modules/@modelcontextprotocol/client/dist");
const v2 = existsSync(workspaceClient)
  ? [await import(pathToFileURL(join(workspaceClient, "index.mjs")).href), await import(pathToFileURL(join(workspaceClient, "stdio.mjs")).href)]
  : [await import("@modelcontextprotocol/client"), await import("@modelcontextprotocol/client/stdio")];
const client2 = new v2[0].Client({ name: "bench-tool-round", version: "1.0.0" });
await client2.connect(new v2[1].StdioClientTransport({ ...server, stderr: "ignore" }));
const args = { a: 2, b: 2 };
let turn = 0;
const sides = {
  weft: async (n) => {
    const signal = new AbortController().signal;
    const results = await Promise.all(Array.from({ length: n }, (_, index) => session.execute({ id: `c${++turn}_${index}`, name: "bench__add", arguments: args }, { signal })));
    if (results.some((result) => result.output !== "4")) throw new Error(`weft answered ${results[0]?.output}`);
  },
  native: async (n) => {
    const signal = new AbortController().signal;
    const results = await Promise.all(Array.from({ length: n }, (_, index) => session.execute({ id: `n${++turn}_${index}`, name: "add", arguments: args }, { signal })));
    if (results.some((result) => result.output !== "4")) throw new Error(`weft answered ${results[0]?.output}`);
  },
  client2: async (n) => {
    const results = await Promise.all(Array.from({ length: n }, () => client2.callTool({ name: "add", arguments: args })));
    if (results.some((result) => result.content[0].text !== "4")) throw new Error("the 2.x client answered wrong");
  },
  official: async (n) => {
    const results = await Promise.all(Array.from({ length: n }, () => official.callTool({ name: "add", arguments: args })));
    if (results.some((result) => result.content[0].text !== "4")) throw new Error("the official client answered wrong");
  },
  floor: async (n) => {
    const results = await Promise.all(Array.from({ length: n }, () => rpc.callTool({ name: "add", arguments: args })));
    if (results.some((result) => result.content[0].text !== "4")) throw new Error("floor answered wrong");
  },
};
try {
  for (const n of flags.calls.split(",").map(Number)) {
    const rounds = Math.max(20, Math.round(Number(flags.rounds) / Math.sqrt(n)));
    const cpu = { weft: [], native: [], client2: [], official: [], floor: [] };
    const names = Object.keys(cpu);
    for (let i = 0; i < rounds + 10; i++) {
      for (const name of i % 2 ? [...names].reverse() : names) {
        const before = process.cpuUsage();
        await sides[name](n);
        const used = process.cpuUsage(before);
        if (i >= 10) cpu[name].push((used.user + used.system) / n);
      }
    }
    const [weft, native, v2client, client, floor] = names.map((name) => summarize(cpu[name]).p50);
    console.log(
      `${String(n).padStart(4)} calls at once: weft ${weft.toFixed(1)} µs CPU/call (native tool ${native.toFixed(1)}), client 2.x ${v2client.toFixed(1)}, ` +
        `official client 1.x ${client.toFixed(1)}, floor ${floor.toFixed(1)}; weft / floor ${(weft / floor).toFixed(2)}×, ` +
        `client 2.x / floor ${(v2client / floor).toFixed(2)}×, 1.x / floor ${(client / floor).toFixed(2)}× (${rounds} rounds)`,
    );
  }
} finally {
  await session.dispose();
  await kernel.close();
  await rpc.close();
  await official.close();
  await client2.close();
}
