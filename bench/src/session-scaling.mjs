// Does a long-lived process pay for sessions it closed? Measures a session's first model request
// (start a session, build its prompt, run one turn against the scripted model) on a fresh kernel and
// on one that has opened and closed 3000 sessions, each with a skills-like prompt tap and a tool of
// its own; and the execute path's cost per call, on the kernel and through a session.
// Reported as ratios between rows of one run.
//
//   node bench/src/session-scaling.mjs                          # the workspace's build
//   node bench/src/session-scaling.mjs --core <dir>             # another build: <dir>/core/dist, <dir>/sdk/dist
//   node bench/src/session-scaling.mjs --closed 500             # fewer closed sessions (the old kernel is quadratic)
//
// Everything runs in this process on the workspace's Node; no peers are needed.
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import path from "node:path";

const args = process.argv.slice(2);
const coreDir = args.includes("--core") ? args[args.indexOf("--core") + 1] : undefined;
const load = (pkg, sub) => (coreDir ? import(pathToFileURL(path.resolve(coreDir, pkg, "dist", sub)).href) : import(`@weft/${pkg}${sub === "index.js" ? "" : "/testing"}`));
const { createKernel, createAgent } = await load("core", "index.js");
const sdk = await load("sdk", "index.js");
const { scriptedModel } = await load("sdk", "testing/index.js");

const CLOSED = args.includes("--closed") ? Number(args[args.indexOf("--closed") + 1]) : 3000;
const SAMPLES = 300;
const CALLS = 20000;

const echo = sdk.defineTool({
  name: "echo",
  description: "Echo",
  input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
  execute: ({ text }) => ({ output: text }),
});

/** What a skills plugin gives each session: a tool and a catalog section. */
const equipment = (index) => ({
  register(api) {
    api.tools.add({ ...echo, name: `skill_${index % 7}` });
    api.hooks.prompt.tap((sections) => [...sections, `# Skills ${index}`]);
  },
});

async function kernelWithPack() {
  const kernel = createKernel({ logger: sdk.memoryLogger() });
  await kernel.use(sdk.definePlugin({ meta: { name: "pack", version: "1.0.0", api: sdk.PLUGIN_API_VERSION }, setup: (api) => void api.tools.add(echo) }));
  await kernel.ready();
  return kernel;
}

async function firstRequest(kernel, index) {
  const agent = createAgent({ model: scriptedModel(["hello"]), kernel, compaction: false });
  await agent.startSession({ prompt: "You help.", skills: equipment(index) });
  const started = performance.now();
  await agent.process("hi");
  const elapsed = performance.now() - started;
  await agent.close();
  return elapsed;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function sampleFirstRequests(kernel, offset) {
  const times = [];
  for (let i = 0; i < SAMPLES; i++) times.push(await firstRequest(kernel, offset + i));
  return median(times);
}

// "Fresh" keeps its first samples' sessions too (closed); with the old kernel even these add up.
const fresh = await kernelWithPack();
for (let i = 0; i < 50; i++) await firstRequest(fresh, i); // warm-up
const freshMs = await sampleFirstRequests(fresh, 0);
const used = await kernelWithPack();
for (let i = 0; i < CLOSED; i++) await firstRequest(used, i);
const usedMs = await sampleFirstRequests(used, CLOSED);

async function perCall(execute) {
  for (let i = 0; i < 2000; i++) await execute();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await execute();
  return ((performance.now() - started) * 1000) / CALLS;
}
const call = { name: "echo", arguments: { text: "x" } };
// On a kernel no session has touched: the execute path itself, comparable across builds.
const bare = await kernelWithPack();
const kernelUs = await perCall(() => bare.execute(call));
const session = typeof bare.session === "function" ? await bare.session() : undefined;
const sessionUs = session ? await perCall(() => session.execute(call)) : undefined;

console.log(JSON.stringify({ build: coreDir ?? "workspace", closedSessions: CLOSED, samples: SAMPLES }));
console.log(`first model request, fresh kernel:            ${freshMs.toFixed(3)} ms (median)`);
console.log(`first model request, after ${CLOSED} closed:     ${usedMs.toFixed(3)} ms (median)  ratio ${(usedMs / freshMs).toFixed(2)}x`);
console.log(`kernel.execute, no gate:                      ${kernelUs.toFixed(2)} µs/call`);
if (sessionUs !== undefined) console.log(`session.execute, no gate:                     ${sessionUs.toFixed(2)} µs/call`);
await fresh.close();
await used.close();
await bare.close();
