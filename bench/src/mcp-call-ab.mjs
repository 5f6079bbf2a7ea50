// The per-call path of an MCP tool in two builds of the MCP plugin, in one process, alternating rounds so
// the ratio survives a noisy machine: each build's kernel runs the bench's stdio server (src/mcp-server.mjs)
// and calls its `echo` through kernel.execute, `--at-once` calls at a time (a tool round of that many calls).
// Reported: wall time and CPU time (user + system) per call, medians over the rounds, and their ratios.
//   node bench/src/mcp-call-ab.mjs --old <workspace dir of the baseline build> [--new <dir>] [--calls 2000] [--rounds 8] [--at-once 1]
// Each dir needs core/dist, sdk/dist and plugins/mcp/dist built, with its own node_modules.
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const srcDir = path.dirname(fileURLToPath(import.meta.url));
const workspace = path.resolve(srcDir, "..", "..");
const builds = { new: path.resolve(option("--new", workspace)), old: option("--old", undefined) };
if (!builds.old) throw new Error("name the baseline build: --old <dir>");
builds.old = path.resolve(builds.old);
const CALLS = Number(option("--calls", "2000"));
const ROUNDS = Number(option("--rounds", "8"));
const AT_ONCE = Number(option("--at-once", "1"));
const server = { command: process.execPath, args: [path.join(srcDir, "mcp-server.mjs")] };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

async function kernelOf(dir) {
  const load = (file) => import(pathToFileURL(path.join(dir, file)).href);
  const [{ createKernel }, { default: mcp }] = await Promise.all([load("core/dist/index.js"), load("plugins/mcp/dist/index.js")]);
  const kernel = createKernel({ logger: silent });
  await kernel.use(mcp, { config: { mcpServers: { bench: server } } });
  await kernel.ready();
  return kernel;
}

const kernels = { new: await kernelOf(builds.new), old: await kernelOf(builds.old) };
const call = { name: "bench__echo", arguments: { text: "ping" } };
for (const kernel of Object.values(kernels)) {
  const result = await kernel.execute(call);
  if (result.isError) throw new Error(`the bench server's echo failed: ${result.output}`);
  for (let i = 0; i < 300; i++) await kernel.execute(call);
}
const perCall = { new: [], old: [] };
const cpuPerCall = { new: [], old: [] };
const burst = (kernel) => Promise.all(Array.from({ length: AT_ONCE }, () => kernel.execute(call)));
for (let round = 0; round < ROUNDS; round++) {
  for (const build of round % 2 ? ["new", "old"] : ["old", "new"]) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    for (let i = 0; i < CALLS; i += AT_ONCE) await burst(kernels[build]);
    const { user, system } = process.cpuUsage(cpu);
    perCall[build].push(((performance.now() - started) * 1000) / CALLS);
    cpuPerCall[build].push((user + system) / CALLS);
  }
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const result = { calls: CALLS, rounds: ROUNDS, atOnce: AT_ONCE, oldUsPerCall: median(perCall.old), newUsPerCall: median(perCall.new) };
result.ratio = result.newUsPerCall / result.oldUsPerCall;
Object.assign(result, { oldCpuUsPerCall: median(cpuPerCall.old), newCpuUsPerCall: median(cpuPerCall.new) });
result.cpuRatio = result.newCpuUsPerCall / result.oldCpuUsPerCall;
console.log(JSON.stringify(result, (_key, value) => (typeof value === "number" ? Math.round(value * 1000) / 1000 : value)));
await Promise.all(Object.values(kernels).map((kernel) => kernel.close()));
