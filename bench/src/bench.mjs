/**
 * `npm run bench`: installs bench's peers and its Node 22 binary when missing (npm ci), builds weft
 * (turbo, at the workspace root), then runs the orchestrator on that Node 22 binary. Arguments after
 * `--` go to the orchestrator (`npm run bench -- --only weft,floor --runs 50`).
 * Runs on whatever Node started it (20 or 22): it only spawns.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const rootDir = join(benchDir, "..");
const node22 = join(benchDir, "node_modules", "node", "bin", "node");

function step(title, command, args, cwd) {
  process.stderr.write(`bench: ${title}\n`);
  return spawnSync(command, args, { cwd, stdio: "inherit" }).status;
}

if (!existsSync(join(benchDir, "node_modules")) || !existsSync(node22)) {
  const status = step("installing the peers and Node 22 (npm ci in bench/)", "npm", ["ci", "--no-audit", "--no-fund"], benchDir);
  if (status !== 0 || !existsSync(node22)) {
    process.stderr.write("bench: npm ci failed in bench/; fix the install (see above) and run again\n");
    process.exit(1);
  }
}

// --continue: a weft package that does not build yet is reported by its runner, not a reason to stop.
const buildStatus = step("building weft (npx turbo run build)", "npx", ["turbo", "run", "build", "--continue", "--output-logs=errors-only"], rootDir);
if (buildStatus !== 0) process.stderr.write("bench: some weft packages failed to build; their scenarios will say so\n");

const status = step(`running on ${node22}`, node22, [join(benchDir, "src", "run.mjs"), ...process.argv.slice(2)], benchDir);
process.exit(status ?? 1);
