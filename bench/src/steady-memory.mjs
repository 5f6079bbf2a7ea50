/**
 * Steady-state memory: each framework's `mcp` row in a process of its own runs 10 000 conversations
 * (batches of 100) on the mock LLM; reported are the live heap after a full collection at 1000 runs
 * and at the end (flat after warm-up, or growing?), and the process's peak RSS (VmHWM) after the
 * last run. The rows run one after another, so each has the machine to itself as far as this bench goes.
 * Slow (minutes a row for the slower peers), so not part of run.mjs:
 *
 *   node_modules/node/bin/node src/steady-memory.mjs [--runs 10000] [--only weft,pi] [--scenario mcp] [--out file.json]
 *
 * Writes results.memory.json (or --out) and prints the table README.md quotes.
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { FRAMEWORKS } from "./frameworks.mjs";
import { machine, workspaceCommit } from "./machine.mjs";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { Row } from "./row.mjs";
import { oneLine } from "./table.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const benchDir = join(srcDir, "..");
const { values: flags } = parseArgs({
  options: { runs: { type: "string", default: "10000" }, only: { type: "string" }, scenario: { type: "string", default: "mcp" }, out: { type: "string" } },
});
const runs = Number(flags.runs);
/** Batches small enough to finish within a row's step limit on a loaded machine. */
const BATCH = 100;
const WARM = 1000;
const only = flags.only?.split(",");
const mcpServer = { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] };

const llm = await startMockLlmServer();
const rows = [];
try {
  for (const framework of FRAMEWORKS) {
    if (only && !only.includes(framework.name)) continue;
    const scenario = framework.scenarios.includes(flags.scenario) ? flags.scenario : framework.scenarios[0];
    if (framework.name === "weft-ai-sdk" || framework.name === "floor-rpc") continue;
    process.stderr.write(`${framework.name} ${scenario}: `);
    const config = { runner: join(srcDir, framework.runner), scenario, llmUrl: llm.url, mcpServer, skillsDir: join(benchDir, "skills") };
    const row = new Row({ framework: framework.name, scenario, srcDir, config, nodeFlags: ["--expose-gc"] });
    await row.start();
    for (let done = 0; done < runs && row.alive; done += BATCH) {
      const count = Math.min(BATCH, runs - done);
      // The heap after the first 1000 runs (warmed up) and after the last.
      await row.batch(count, llm.counts, false, done + count === WARM || done + count >= runs);
      if ((done + count) % 1000 === 0) process.stderr.write(".");
    }
    const result = await row.finish();
    await row.stop();
    const [warmHeap, endHeap] = result.liveHeapsMb;
    rows.push({ framework: framework.name, scenario, runs: result.total, correct: result.correct, peakRssMb: result.peakRssMb, warmHeapMb: warmHeap, endHeapMb: endHeap, error: result.error });
    process.stderr.write(
      result.error
        ? ` FAILED ${oneLine(result.error)}\n`
        : ` ${result.correct}/${result.total} right, live heap ${warmHeap?.toFixed(1)} → ${endHeap?.toFixed(1)} MB, peak RSS ${result.peakRssMb?.toFixed(0)} MB\n`,
    );
  }
} finally {
  await llm.close();
}

const fixed = (value, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "—");
const peers = rows.filter((row) => !row.error && row.framework !== "weft" && !row.framework.startsWith("floor"));
const lowest = peers.sort((a, b) => a.peakRssMb - b.peakRssMb)[0];
const lines = [
  `Measured ${new Date().toISOString().slice(0, 10)} on ${machine().cpu} (${machine().cores} cores), Node ${process.version}, weft at ${workspaceCommit(benchDir)}; ${runs} runs per row, ${flags.scenario} scenario.`,
  "",
  `| framework | runs (correct) | live heap after ${WARM} runs MB | live heap after ${runs} runs MB | peak RSS after ${runs} runs MB | peak RSS / lowest peer |`,
  "|---|--:|--:|--:|--:|--:|",
  ...rows.map((row) =>
    row.error
      ? `| ${row.framework} | not run: ${oneLine(row.error)} | — | — | — | — |`
      : `| ${row.framework} | ${row.runs} (${row.correct}) | ${fixed(row.warmHeapMb)} | ${fixed(row.endHeapMb)} | ${fixed(row.peakRssMb, 0)} | ${lowest ? `${(row.peakRssMb / lowest.peakRssMb).toFixed(2)}× (${lowest.framework})` : "—"} |`,
  ),
];
console.log(lines.join("\n"));
writeFileSync(flags.out ?? join(benchDir, "results.memory.json"), `${JSON.stringify({ date: new Date().toISOString(), machine: machine(), weftCommit: workspaceCommit(benchDir), runs, rows }, null, 2)}\n`);
