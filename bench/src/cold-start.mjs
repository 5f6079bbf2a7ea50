// Cold start, each in a fresh process timed from spawn to exit, against a bare Node start in the same run:
//   CLI (the workspace's Node): `node -e 0`, `weft --help`, `weft tools` on a project with the built-in
//   tools and one local pack (no MCP); the same on Node 22, where the bin keeps a compile cache.
//   Library (Node 22, which the AI SDK needs; scripts/node22.sh): `node -e 0`, then import + init of the
//   runners in src/runners for weft and the Vercel AI SDK (`ai` + `@ai-sdk/openai-compatible`, and
//   `@ai-sdk/mcp` in the mcp scenario): `native` (a model and two local tools) and `mcp` (a model and the
//   stdio MCP server of src/mcp-server.mjs, connected and listed).
// A pass runs every row `--runs` times, interleaved round after round so machine noise hits all alike,
// and takes each row's median; `--passes` passes give the ranges. Module counts come from one more run
// of each row with src/module-count.mjs loaded. After a workspace build and `npm ci` in bench/:
//   node bench/src/cold-start.mjs [--runs 10] [--passes 3] [--json out.json]
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "10" }, passes: { type: "string", default: "3" }, json: { type: "string" } },
});
const runs = Number(values.runs);
const passes = Number(values.passes);
const srcDir = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(srcDir, "../..");
const bin = path.join(repo, "cli/bin/weft.js");
const node22 = execFileSync("bash", [path.join(repo, "scripts/node22.sh")], { encoding: "utf8" }).trim();
const node20 = process.execPath;

const project = mkdtempSync(path.join(tmpdir(), "weft-cold-start-"));
writeFileSync(
  path.join(project, "pack.js"),
  `export default { meta: { name: "echo-pack", version: "1.0.0", api: 1 }, setup(api) { api.tools.add({ name: "echo", description: "Echo", inputSchema: { type: "object" }, execute: async () => ({ output: "" }) }); } };\n`,
);
writeFileSync(path.join(project, "weft.config.yaml"), "builtins: true\nplugins:\n  - ./pack.js\n");

const mcpServer = { command: node22, args: [path.join(srcDir, "mcp-server.mjs")] };
const library = (runner, scenario) => [
  node22,
  [path.join(srcDir, "cold-start-worker.mjs"), JSON.stringify({ runner: path.join(srcDir, "runners", runner), scenario, mcpServer, skillsDir: path.join(srcDir, "../skills") })],
];
/** name → [node binary, arguments]; a group's rows are divided by its `node -e 0`. */
const groups = {
  [`CLI, Node ${execFileSync(node20, ["-p", "process.version"], { encoding: "utf8" }).trim()}`]: {
    "node -e 0": [node20, ["-e", "0"]],
    "weft --help": [node20, [bin, "--help"]],
    "weft tools": [node20, [bin, "tools"]],
  },
  // bin/weft.js turns on Node 22's compile cache (module.enableCompileCache), which Node 20 lacks: the
  // same rows on Node 22 show what a user of a current Node gets from the second start on.
  [`CLI, Node ${execFileSync(node22, ["-p", "process.version"], { encoding: "utf8" }).trim()}, compile cache`]: {
    "node -e 0": [node22, ["-e", "0"]],
    "weft --help": [node22, [bin, "--help"]],
    "weft tools": [node22, [bin, "tools"]],
  },
  [`library import + init, Node ${execFileSync(node22, ["-p", "process.version"], { encoding: "utf8" }).trim()}`]: {
    "node -e 0": [node22, ["-e", "0"]],
    "weft native": library("weft.mjs", "native"),
    "AI SDK native": library("vercel-ai.mjs", "native"),
    "weft mcp": library("weft.mjs", "mcp"),
    "AI SDK mcp": library("vercel-ai.mjs", "mcp"),
  },
};
// The project's pack is code: trusting every config is what CI does too.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: "1" };

function runOnce([command, args], extraEnv = {}) {
  const started = performance.now();
  const result = spawnSync(command, args, { cwd: project, stdio: ["ignore", "ignore", "pipe"], env: { ...env, ...extraEnv }, encoding: "utf8" });
  const elapsed = performance.now() - started;
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

/** Files loaded, grouped by package (`typebox`, `@weft/core`…). */
function moduleCount(row) {
  const file = path.join(project, "modules.txt");
  rmSync(file, { force: true });
  const [command, args] = row;
  runOnce([command, ["--import", path.join(srcDir, "module-count.mjs"), ...args]], { COLD_START_MODULES: file });
  const urls = new Set(readFileSync(file, "utf8").split("\n").filter(Boolean));
  const byPackage = {};
  for (const url of urls) {
    const inNodeModules = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
    const inRepo = url.startsWith(`file://${repo}/`) ? url.slice(`file://${repo}/`.length).split("/").slice(0, url.includes("/plugins/") ? 2 : 1).join("/") : undefined;
    const key = inNodeModules?.[1] ?? inRepo ?? "other";
    byPackage[key] = (byPackage[key] ?? 0) + 1;
  }
  return { total: urls.size, byPackage: Object.fromEntries(Object.entries(byPackage).sort((a, b) => b[1] - a[1])) };
}

const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const results = { runs, passes, groups: {} };
try {
  for (const [group, rows] of Object.entries(groups)) {
    const perPass = [];
    for (let pass = 0; pass < passes; pass++) {
      const samples = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
      // One round first, not counted: it warms the file cache.
      for (let round = 0; round <= runs; round++) {
        for (const [name, row] of Object.entries(rows)) {
          const elapsed = runOnce(row);
          if (round > 0) samples[name].push(elapsed);
        }
      }
      perPass.push(Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list)])));
    }
    const modules = Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, moduleCount(row)]));
    results.groups[group] = { perPass, modules };
  }
} finally {
  rmSync(project, { recursive: true, force: true });
}

const range = (list, digits) => {
  const low = Math.min(...list).toFixed(digits);
  const high = Math.max(...list).toFixed(digits);
  return low === high ? low : `${low}-${high}`;
};
console.log(`cold start: ${passes} passes of ${runs} interleaved runs each; ranges are over the passes' medians`);
for (const [group, { perPass, modules }] of Object.entries(results.groups)) {
  console.log(`\n${group}`);
  console.log(`${"row".padEnd(15)} ${"median ms".padStart(11)}  ${"× node -e 0".padStart(11)}  ${"× AI SDK".padStart(9)}  modules`);
  for (const name of Object.keys(perPass[0] ?? {})) {
    const times = perPass.map((pass) => pass[name]);
    const toNode = perPass.map((pass) => pass[name] / pass["node -e 0"]);
    const peer = name.replace(/^weft /, "AI SDK ");
    const toPeer = peer !== name && peer in (perPass[0] ?? {}) ? range(perPass.map((pass) => pass[name] / pass[peer]), 2) : "";
    const { total, byPackage } = modules[name];
    const top = Object.entries(byPackage).slice(0, 4).map(([key, count]) => `${key} ${count}`).join(", ");
    console.log(`${name.padEnd(15)} ${range(times, 0).padStart(11)}  ${range(toNode, 2).padStart(11)}  ${toPeer.padStart(9)}  ${total} (${top})`);
  }
}
if (values.json) writeFileSync(values.json, `${JSON.stringify(results, null, 2)}\n`);
