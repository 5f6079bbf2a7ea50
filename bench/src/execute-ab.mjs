// The execute path of two builds in one process, alternating rounds, so the ratio survives a noisy
// machine: no gate, and with a gate, an after-tap and a feedback observer tapped.
//   node bench/src/execute-ab.mjs --old <dir with core/dist and sdk/dist of the baseline> [--new <dir>]
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? path.resolve(args[args.indexOf(name) + 1]) : fallback);
const workspace = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const builds = { new: option("--new", workspace), old: option("--old", undefined) };
if (!builds.old) throw new Error("name the baseline build: --old <dir>");
const mods = {};
for (const [k, dir] of Object.entries(builds)) {
  mods[k] = { core: await import(pathToFileURL(`${dir}/core/dist/index.js`).href), sdk: await import(pathToFileURL(`${dir}/sdk/dist/index.js`).href) };
}
async function kernelFor({ core, sdk }, gated) {
  const kernel = core.createKernel({ logger: sdk.memoryLogger() });
  const echo = sdk.defineTool({ name: "echo", description: "e", input: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, execute: ({ text }) => ({ output: text }) });
  await kernel.use(sdk.definePlugin({ meta: { name: "p", version: "1", api: sdk.PLUGIN_API_VERSION }, setup: (api) => { api.tools.add(echo); if (gated) { api.hooks.beforeToolCall.tap(() => undefined); api.hooks.afterToolCall.tap((r) => r); api.hooks.feedback.tap(() => {}); } } }));
  await kernel.ready();
  return kernel;
}
const N = 20000, call = { name: "echo", arguments: { text: "x" } };
const res = {};
for (const gated of [false, true]) {
  const ks = { new: await kernelFor(mods.new, gated), old: await kernelFor(mods.old, gated) };
  for (const k of ["new", "old"]) for (let i = 0; i < 3000; i++) await ks[k].execute(call);
  for (let round = 0; round < 6; round++) for (const k of round % 2 ? ["new", "old"] : ["old", "new"]) {
    const t = performance.now(); for (let i = 0; i < N; i++) await ks[k].execute(call);
    const row = `${k}${gated ? "-gated" : ""}`;
    res[row] ??= [];
    res[row].push(((performance.now() - t) * 1000) / N);
  }
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
for (const [k, v] of Object.entries(res)) console.log(k, med(v).toFixed(2), "µs/call", v.map((x) => x.toFixed(1)).join(" "));
console.log("ratio new/old ungated", (med(res.new) / med(res.old)).toFixed(3), "gated", (med(res["new-gated"]) / med(res["old-gated"])).toFixed(3));
