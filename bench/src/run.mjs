/**
 * The orchestrator, run on the Node 22 binary by bench.mjs: starts the mock LLM, runs every
 * framework × scenario in a process of its own, one after another, then the MCP parallel-start and
 * streaming-parse benchmarks; prints the table and writes results.json (and the README's table).
 *
 *   node src/run.mjs [--only floor,weft] [--runs 300] [--warmups 20] [--no-write] [--profile weft]
 *
 * `--profile <names>` runs those rows (frameworks, or mcp-parallel / parse) under --cpu-prof and leaves
 * the profiles in bench/results.raw/profiles (open them in Chrome DevTools).
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FRAMEWORKS } from "./frameworks.mjs";
import { machine, packageVersion } from "./machine.mjs";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { oneLine, renderTable, updateReadme } from "./table.mjs";

const benchDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({
  options: {
    only: { type: "string" },
    runs: { type: "string", default: "300" },
    warmups: { type: "string", default: "20" },
    "no-write": { type: "boolean", default: false },
    profile: { type: "string" },
  },
});
const only = flags.only?.split(",");
const profiled = new Set(flags.profile?.split(",") ?? []);
const profileDir = join(benchDir, "results.raw", "profiles");
const runs = Number(flags.runs);
const warmups = Number(flags.warmups);
/** A framework × scenario that has not finished by then is reported as hung. */
const CHILD_TIMEOUT_MS = 150_000;

const mcpServer = { command: process.execPath, args: [join(benchDir, "src", "mcp-server.mjs")] };
const scratch = mkdtempSync(join(tmpdir(), "weft-bench-"));

/** Runs a script in a child process on this same Node binary; resolves with the JSON it wrote. */
function runChild(name, script, args) {
  const outFile = join(scratch, `${Math.random().toString(36).slice(2)}.json`);
  const nodeFlags = profiled.has(name) ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlags, join(benchDir, "src", script), outFile, ...args],
      { cwd: benchDir, timeout: CHILD_TIMEOUT_MS, maxBuffer: 64 * 2 ** 20, env: { ...process.env, NODE_ENV: "production" } },
      (error, _stdout, stderr) => {
        try {
          resolve(JSON.parse(readFileSync(outFile, "utf8")));
        } catch {
          const why = error?.killed ? `did not finish within ${CHILD_TIMEOUT_MS / 1000} s` : `exited with ${error?.code ?? "no result"}`;
          resolve({ ok: false, error: `${why}: ${stderr.slice(-1500)}` });
        }
      },
    );
  });
}

const llm = await startMockLlmServer();
const results = {
  date: new Date().toISOString(),
  machine: machine(),
  method: { warmups, runs, llm: "mock OpenAI Chat Completions, streaming, 127.0.0.1 keep-alive" },
  versions: {},
  frameworks: [],
};

try {
  for (const framework of FRAMEWORKS) {
    if (only && !only.includes(framework.name)) continue;
    results.versions[framework.name] = Object.fromEntries(framework.packages.map((name) => [name, packageVersion(name, benchDir)]));
    for (const scenario of framework.scenarios) {
      const before = llm.counts.modelCalls;
      process.stderr.write(`${framework.name} ${scenario} ... `);
      const config = {
        runner: join(benchDir, "src", framework.runner),
        scenario,
        llmUrl: llm.url,
        mcpServer,
        skillsDir: join(benchDir, "skills"),
        warmups,
        runs,
      };
      const result = await runChild(framework.name, "measure.mjs", [JSON.stringify(config)]);
      result.framework = framework.name;
      result.scenario = scenario;
      result.requestsPerRun = result.total ? (llm.counts.modelCalls - before) / result.total : undefined;
      results.frameworks.push(result);
      process.stderr.write(result.ok ? `p50 ${result.latency.p50.toFixed(2)} ms\n` : `FAILED ${oneLine(result.error ?? result.failures?.[0])}\n`);
    }
  }
  if (!only || only.includes("mcp-parallel")) {
    process.stderr.write("mcp-parallel ... ");
    results.mcpParallel = await runChild("mcp-parallel", "mcp-parallel.mjs", [JSON.stringify({ mcpServer })]);
    const failed = [results.mcpParallel.weft, results.mcpParallel.floor].filter((side) => !side?.ok);
    process.stderr.write(failed.length ? `FAILED ${oneLine(failed[0]?.error ?? results.mcpParallel.error)}\n` : "done\n");
  }
  if (!only || only.includes("parse")) {
    process.stderr.write("parse ... ");
    results.parse = await runChild("parse", "parse-bench.mjs", [JSON.stringify({ fixtures: join(benchDir, "..", "fixtures", "providers") })]);
    process.stderr.write(results.parse.ok ? "done\n" : `FAILED ${oneLine(results.parse.error ?? results.parse.rows?.find((row) => row.error)?.error)}\n`);
  }
} finally {
  await llm.close();
  rmSync(scratch, { recursive: true, force: true });
}

const table = renderTable(results);
console.log(table);
if (!flags["no-write"]) {
  writeFileSync(join(benchDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  updateReadme(join(benchDir, "README.md"), table, results);
  console.log(`\nwrote ${join(benchDir, "results.json")} and the table in README.md`);
}
