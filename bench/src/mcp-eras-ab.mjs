// The per-call path of one build's MCP plugin in each protocol era: plugins/mcp's two-era test server
// (@modelcontextprotocol/server 2.x) on stdio as a 2026-07-28 server and as a 2025-11-25 one, the `echo`
// tool called through kernel.execute, rounds alternating. Needs the workspace built.
//   node bench/src/mcp-eras-ab.mjs
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
const ws = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const load = (f) => import(pathToFileURL(path.join(ws, f)).href);
const [{ createKernel }, { default: mcp }] = await Promise.all([load("core/dist/index.js"), load("plugins/mcp/dist/index.js")]);
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const server = path.join(ws, "plugins/mcp/src/test-fixtures/two-era-server.mjs");
const kernels = {};
for (const era of ["2026", "2025"]) {
  const k = createKernel({ logger: silent });
  await k.use(mcp, { config: { mcpServers: { s: { command: process.execPath, args: [server, `--era=${era}`] } } } });
  await k.ready();
  kernels[era] = k;
}
const call = { name: "s__echo", arguments: { text: "ping" } };
for (const k of Object.values(kernels)) for (let i = 0; i < 300; i++) await k.execute(call);
const per = { 2026: [], 2025: [] };
const N = 1000;
for (let r = 0; r < 8; r++) for (const era of r % 2 ? ["2026", "2025"] : ["2025", "2026"]) {
  const t = performance.now(); for (let i = 0; i < N; i++) await kernels[era].execute(call);
  per[era].push(((performance.now() - t) * 1000) / N);
}
const med = (v) => [...v].sort((a, b) => a - b)[4];
console.log(JSON.stringify({ modernUs: med(per[2026]), legacyUs: med(per[2025]), ratio: med(per[2026]) / med(per[2025]) }));
for (const k of Object.values(kernels)) await k.close();
