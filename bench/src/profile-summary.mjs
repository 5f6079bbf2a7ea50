/**
 * Where the time goes in a --cpu-prof profile: self time by package and by function, and inclusive
 * time (the function and everything it called) of weft's own functions.
 *
 *   node src/profile-summary.mjs results.raw/profiles/CPU.*.cpuprofile [--top 20]
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: "string", default: "20" } } });
const top = Number(values.top);

/** `@scope/name` or `name` from a node_modules path; the workspace package from a weft path. */
function packageOf(url) {
  const modules = url.lastIndexOf("node_modules/");
  if (modules >= 0) {
    const parts = url.slice(modules + 13).split("/");
    return parts[0].startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const weft = /\/(sdk|core|cli|plugins\/[^/]+)\/dist\//.exec(url);
  if (weft) return `weft ${weft[1]}`;
  if (url.startsWith("node:") || url === "") return "node built-ins";
  return url.includes("/bench/src/") ? "bench harness" : url;
}

for (const file of positionals) {
  const profile = JSON.parse(readFileSync(file, "utf8"));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfTime = new Map();
  for (const [index, id] of profile.samples.entries()) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  const total = [...selfTime.values()].reduce((sum, value) => sum + value, 0);
  const byFunction = new Map();
  const byPackage = new Map();
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const keyOf = ({ functionName, url, lineNumber }) => `${functionName || "(anonymous)"} ${url.split("/").slice(-2).join("/")}:${lineNumber + 1}`;
  // Inclusive time of weft's functions: each sample counts once for every weft frame on its stack.
  const inclusive = new Map();
  for (const [id, time] of selfTime) {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const frame = nodes.get(at).callFrame;
      if (!packageOf(frame.url).startsWith("weft ")) continue;
      const key = `${packageOf(frame.url).slice(5)}: ${keyOf(frame)}`;
      if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + time);
      seen.add(key);
    }
  }
  for (const [id, time] of selfTime) {
    const { functionName, url } = nodes.get(id).callFrame;
    const key = keyOf(nodes.get(id).callFrame);
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
    // V8's pseudo-frames ((idle), (garbage collector), (program)) are buckets of their own.
    const pkg = functionName.startsWith("(") ? functionName : packageOf(url);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + time);
  }
  const print = (title, map) => {
    console.log(`\n${title}`);
    for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`${((time / total) * 100).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(6)} ms  ${key}`);
    }
  };
  console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
  print("self time by package", byPackage);
  print("self time by function", byFunction);
  if (inclusive.size > 0) print("inclusive time of weft's functions", inclusive);
}
