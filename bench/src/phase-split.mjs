/**
 * Where weft's time goes against the floor, phase by phase: the floor (floor-http, the fastest: node:http
 * and the minimal JSON-RPC client, so each phase shows weft's own cost) and weft's `mcp` scenario run
 * alternately in this one process (so noise hits both alike), each run split at the end of the first
 * model reply, of the tool round and of the second reply, in wall time and in this process's CPU time.
 * Medians of RUNS after WARMUPS.
 *
 *   node phase-split.mjs <out.json> '{"llmUrl", "mcpServer"}'
 */
import { writeFileSync } from "node:fs";
import { phaseMarked } from "./phase-marks.mjs";
import { setup as floorSetup } from "./runners/floor-http.mjs";
import { setup as weftSetup } from "./runners/weft.mjs";
import { summarize } from "./stats.mjs";

const [outFile, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const WARMUPS = 50;
const RUNS = 500;
const PHASES = ["model1", "tools", "model2", "end"];

const result = { ok: false, runs: RUNS };
const runners = {};
try {
  // Runs that return their phase marks: wall and CPU ms since the run started.
  runners.floor = await phaseMarked(floorSetup, { ...config, scenario: "mcp" });
  runners.weft = await phaseMarked(weftSetup, { ...config, scenario: "mcp" });
  const runs = { floor: [], weft: [] };
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    for (const name of ["floor", "weft"]) {
      const run = await runners[name].run();
      if (i >= WARMUPS) runs[name].push(run);
    }
  }
  // Each phase's own duration, in wall time and in CPU time: from the previous mark to this one, medians over runs.
  const durations = (list, key) =>
    Object.fromEntries(PHASES.map((phase, index) => [phase, summarize(list.map((run) => run[key][phase] - (index ? run[key][PHASES[index - 1]] : 0))).p50]));
  result.floor = durations(runs.floor, "marks");
  result.weft = durations(runs.weft, "marks");
  result.floorCpu = durations(runs.floor, "cpuMarks");
  result.weftCpu = durations(runs.weft, "cpuMarks");
  result.totals = { floor: summarize(runs.floor.map((run) => run.marks.end)).p50, weft: summarize(runs.weft.map((run) => run.marks.end)).p50 };
  result.ok = true;
} catch (error) {
  result.error = String(error?.stack ?? error);
} finally {
  for (const runner of Object.values(runners)) await runner.close();
}
writeFileSync(outFile, JSON.stringify(result));
process.exit(0);
