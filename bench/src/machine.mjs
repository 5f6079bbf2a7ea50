/** The machine and the exact versions measured, for results.json. */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";

export function machine() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memoryGb: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    // Other work on the machine: the 1-minute load average when the run started.
    loadAverage: Number(os.loadavg()[0].toFixed(1)),
  };
}

/** Version of an installed package, looked up the way Node resolves it from bench/ (bench first, then the workspace). */
export function packageVersion(name, benchDir) {
  for (let dir = benchDir; ; dir = join(dir, "..")) {
    const file = join(dir, "node_modules", name, "package.json");
    if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")).version;
    if (dir === join(dir, "..")) return "not installed";
  }
}

/** The workspace commit weft was built from (and whether the tree had local changes). */
export function workspaceCommit(dir) {
  try {
    const git = (...args) => execFileSync("git", args, { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    return `${git("rev-parse", "--short", "HEAD")}${git("status", "--porcelain", "--untracked-files=no") ? " (with local changes)" : ""}`;
  } catch {
    return "unknown (not a git checkout)";
  }
}
