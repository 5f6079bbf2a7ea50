/**
 * The orchestrator, run on the Node 22 binary by bench.mjs. Starts the mock LLM; starts every
 * framework × scenario in processes of its own (three by default), one after another (import and init timed alone), with
 * its warm-ups; then runs the timed conversations in rounds, a batch per row per round in rotating
 * order, so that a burst of noise on a shared machine hits every row alike; then the MCP parallel-start,
 * floor-vs-weft phase-split and streaming-parse benchmarks. Prints the tables and writes results.json (and the README's table).
 *
 *   node src/run.mjs [--only floor,weft] [--runs 300] [--warmups 20] [--rounds 10] [--processes 3] [--no-write] [--profile weft] [--durable]
 *
 * `--processes N`: each row is played by N processes (src/row-group.mjs), its timed runs shared out
 * between them and pooled, so that no row's figure is one process's luck.
 *
 * `--durable` (or `--only durable`) adds the durable rows (src/durable.mjs: the Restate runner against
 * the in-process agent, the stores' write-ahead cost); they start the Restate server and PostgreSQL.
 *
 * `--profile <names>` runs those rows (frameworks, or mcp-parallel / parse) under --cpu-prof and leaves
 * the profiles in bench/results.raw/profiles (open them in Chrome DevTools).
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FRAMEWORKS } from "./frameworks.mjs";
import { machine, packageVersion, workspaceCommit } from "./machine.mjs";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { RowGroup } from "./row-group.mjs";
import { summarize } from "./stats.mjs";
import { oneLine, renderTable, updateReadme } from "./table.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const benchDir = join(srcDir, "..");
const { values: flags } = parseArgs({
  options: {
    only: { type: "string" },
    runs: { type: "string", default: "300" },
    warmups: { type: "string", default: "20" },
    rounds: { type: "string", default: "10" },
    processes: { type: "string", default: "3" },
    "no-write": { type: "boolean", default: false },
    profile: { type: "string" },
    durable: { type: "boolean", default: false },
  },
});
const only = flags.only?.split(",");
const runs = Number(flags.runs);
const warmups = Number(flags.warmups);
const rounds = Math.max(1, Math.min(Number(flags.rounds), runs));
const processes = Math.max(1, Number(flags.processes));
const profiled = new Set(flags.profile?.split(",") ?? []);
const profileDir = join(benchDir, "results.raw", "profiles");
const nodeFlagsFor = (name) => (profiled.has(name) ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []);
/** A micro-benchmark that has not finished by then is reported as hung. */
const CHILD_TIMEOUT_MS = 150_000;
/** The scale rows start up to 20 MCP servers and run 100 sessions at once: they get longer. */
const SCALE_TIMEOUT_MS = 600_000;
/** Three runs of the Restate and store benchmarks. */
const DURABLE_TIMEOUT_MS = 1_800_000;

const mcpServer = { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] };
const scratch = mkdtempSync(join(tmpdir(), "weft-bench-"));

/** Runs a micro-benchmark script in a child process on this Node binary; resolves with the JSON it wrote. */
function runChild(name, script, args, timeout = CHILD_TIMEOUT_MS) {
  const outFile = join(scratch, `${name}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlagsFor(name), join(srcDir, script), outFile, ...args],
      { cwd: benchDir, timeout, maxBuffer: 64 * 2 ** 20 },
      (error, _stdout, stderr) => {
        try {
          resolve(JSON.parse(readFileSync(outFile, "utf8")));
        } catch {
          const why = error?.killed ? `did not finish within ${timeout / 1000} s` : `exited with ${error?.code ?? "no result"}`;
          resolve({ ok: false, error: `${why}: ${stderr.slice(-1500)}` });
        }
      },
    );
  });
}

/** How many timed runs round `round` gets, so that the rounds add up to `runs` exactly. */
const roundSize = (round) => Math.floor((runs * (round + 1)) / rounds) - Math.floor((runs * round) / rounds);

const llm = await startMockLlmServer();
const results = {
  date: new Date().toISOString(),
  machine: machine(),
  weftCommit: workspaceCommit(benchDir),
  method: { warmups, runs, rounds, processes, llm: "mock OpenAI Chat Completions, streaming, 127.0.0.1 keep-alive" },
  versions: {},
  frameworks: [],
};

const raw = {};
const rows = [];
try {
  for (const framework of FRAMEWORKS) {
    if (only && !only.includes(framework.name)) continue;
    results.versions[framework.name] = Object.fromEntries(framework.packages.map((name) => [name, packageVersion(name, benchDir)]));
    for (const scenario of framework.scenarios) {
      process.stderr.write(`${framework.name} ${scenario}: init and warm-up ... `);
      const config = { runner: join(srcDir, framework.runner), scenario, llmUrl: llm.url, mcpServer, skillsDir: join(benchDir, "skills") };
      const row = new RowGroup({ processes, framework: framework.name, scenario, srcDir, config, nodeFlags: nodeFlagsFor(framework.name) });
      await row.start();
      await row.batch(warmups, llm.counts, false);
      process.stderr.write(row.alive ? `${row.result.correct}/${row.result.total} right\n` : `FAILED ${oneLine(row.result.error)}\n`);
      rows.push(row);
    }
  }
  for (let round = 0; round < rounds && rows.length > 0; round++) {
    process.stderr.write(`round ${round + 1}/${rounds}\r`);
    // Rotate the order so that no row always runs right after the same neighbour.
    for (let i = 0; i < rows.length; i++) await rows[(round + i) % rows.length].batch(roundSize(round), llm.counts);
  }
  if (rows.length > 0) process.stderr.write("\n");
  for (const row of rows) {
    const { samples, cpuSamples, liveHeapsMb: _heaps, modelCalls, ...result } = await row.finish();
    if (samples.length > 0) result.latency = summarize(samples);
    if (cpuSamples.length > 0) result.cpu = summarize(cpuSamples);
    result.requestsPerRun = result.total ? modelCalls / result.total : undefined;
    result.ok = !result.error && result.total === warmups * processes + runs && result.correct === result.total;
    raw[`${row.framework}/${row.scenario}`] = samples;
    results.frameworks.push(result);
    const status = result.ok ? `p50 ${result.latency.p50.toFixed(2)} ms` : `FAILED ${oneLine(result.error ?? result.failures[0])}`;
    process.stderr.write(`${row.framework} ${row.scenario}: ${status}\n`);
  }
  if (!only || only.includes("mcp-parallel")) {
    process.stderr.write("mcp-parallel ... ");
    results.mcpParallel = await runChild("mcp-parallel", "mcp-parallel.mjs", [JSON.stringify({ mcpServer })]);
    const failed = [results.mcpParallel.weft, results.mcpParallel.floor].filter((side) => !side?.ok);
    process.stderr.write(failed.length ? `FAILED ${oneLine(failed[0]?.error ?? results.mcpParallel.error)}\n` : "done\n");
  }
  if (!only || only.includes("phases")) {
    process.stderr.write("phases ... ");
    results.phases = await runChild("phases", "phase-split.mjs", [JSON.stringify({ llmUrl: llm.url, mcpServer, skillsDir: join(benchDir, "skills") })]);
    process.stderr.write(results.phases.ok ? "done\n" : `FAILED ${oneLine(results.phases.error)}\n`);
  }
  if (!only || only.includes("scale")) {
    process.stderr.write("scale ... ");
    results.scale = await runChild("scale", "scale.mjs", [JSON.stringify({ llmUrl: llm.url, mcpServer })], SCALE_TIMEOUT_MS);
    process.stderr.write(results.scale.ok ? "done\n" : `FAILED ${oneLine(results.scale.error ?? results.scale.dimensions?.flatMap((d) => d.rows).find((row) => row.error)?.error)}\n`);
  }
  if (!only || only.includes("parse")) {
    process.stderr.write("parse ... ");
    results.parse = await runChild("parse", "parse-bench.mjs", [JSON.stringify({ fixtures: join(benchDir, "..", "fixtures", "providers") })]);
    process.stderr.write(results.parse.ok ? "done\n" : `FAILED ${oneLine(results.parse.error ?? results.parse.rows?.find((row) => row.error)?.error)}\n`);
  }
  if (flags.durable || only?.includes("durable")) {
    process.stderr.write("durable ... ");
    results.durable = await runChild("durable", "durable.mjs", [], DURABLE_TIMEOUT_MS);
    process.stderr.write(results.durable.ok ? `done\n${results.durable.lines.join("\n")}\n` : `FAILED ${oneLine(results.durable.error)}\n`);
  }
} finally {
  // Not killed: a row writes its --cpu-prof profile as it exits (stop() kills one that hangs).
  await Promise.all(rows.map((row) => row.stop()));
  await llm.close();
  rmSync(scratch, { recursive: true, force: true });
}

const table = renderTable(results);
console.log(table);
if (!flags["no-write"]) {
  writeFileSync(join(benchDir, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  mkdirSync(join(benchDir, "results.raw"), { recursive: true });
  writeFileSync(join(benchDir, "results.raw", "samples.json"), JSON.stringify(raw));
  updateReadme(join(benchDir, "README.md"), table, results);
  console.log(`\nwrote ${join(benchDir, "results.json")} and the table in README.md`);
}
