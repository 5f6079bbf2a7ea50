// The weft command's start-up, side by side with a bare Node start: `node -e 0`, `weft --help`, and
// `weft tools` on a project without MCP servers (the built-in tools and one local pack). The three run
// interleaved, round after round, so machine noise hits them alike; the report is each one's median and
// its ratio to `node -e 0`. Run on the workspace's Node after a build:
//   node bench/src/cli-startup.mjs [--runs 30]
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "30" } } });
const runs = Number(values.runs);
const bin = fileURLToPath(new URL("../../cli/bin/weft.js", import.meta.url));
const project = mkdtempSync(path.join(tmpdir(), "weft-startup-"));
writeFileSync(
  path.join(project, "pack.js"),
  `export default { meta: { name: "echo-pack", version: "1.0.0", api: 1 }, setup(api) { api.tools.add({ name: "echo", description: "Echo", inputSchema: { type: "object" }, execute: async () => ({ output: "" }) }); } };\n`,
);
writeFileSync(path.join(project, "weft.config.yaml"), "builtins: true\nplugins:\n  - ./pack.js\n");

const rows = {
  "node -e 0": [process.execPath, ["-e", "0"]],
  "weft --help": [process.execPath, [bin, "--help"]],
  "weft tools": [process.execPath, [bin, "tools"]],
};
const samples = Object.fromEntries(Object.keys(rows).map((name) => [name, []]));
try {
  for (let round = 0; round < runs + 2; round++) {
    for (const [name, [command, args]] of Object.entries(rows)) {
      const started = performance.now();
      execFileSync(command, args, { cwd: project, stdio: "ignore", env: { PATH: process.env.PATH, HOME: process.env.HOME } });
      // The first two rounds warm the file cache and are not counted.
      if (round >= 2) samples[name].push(performance.now() - started);
    }
  }
} finally {
  rmSync(project, { recursive: true, force: true });
}
const median = (list) => {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const floor = median(samples["node -e 0"]);
console.log(`weft CLI start-up, ${runs} interleaved runs each, Node ${process.version}`);
for (const [name, list] of Object.entries(samples)) {
  const value = median(list);
  console.log(`${name.padEnd(12)} median ${value.toFixed(1).padStart(6)} ms   ${(value / floor).toFixed(2)}x node -e 0`);
}
