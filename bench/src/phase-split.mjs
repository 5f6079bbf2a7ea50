/**
 * Where weft's time goes against the floor, phase by phase: the floor (floor-http, the fastest: node:http
 * and the minimal JSON-RPC client, so each phase shows weft's own cost) and weft's `mcp` scenario run
 * alternately in this one process (so noise hits both alike), each run split at the end of the first
 * model reply, of the tool round and of the second reply. Medians of RUNS after WARMUPS.
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

/** A runner whose runs return their phase marks, as ms since the run started. */
async function instrumented(setup, scenario) {
  const runner = await phaseMarked(setup, { ...config, scenario });
  return { run: async () => (await runner.run()).marks, close: () => runner.close() };
}

const result = { ok: false, runs: RUNS };
const runners = {};
try {
  runners.floor = await instrumented(floorSetup, "floor");
  runners.weft = await instrumented(weftSetup, "mcp");
  const marks = { floor: [], weft: [] };
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    for (const name of ["floor", "weft"]) {
      const mark = await runners[name].run();
      if (i >= WARMUPS) marks[name].push(mark);
    }
  }
  // Each phase's own duration: from the previous mark to this one, medians over runs.
  const durations = (list) =>
    Object.fromEntries(PHASES.map((phase, index) => [phase, summarize(list.map((mark) => mark[phase] - (index ? mark[PHASES[index - 1]] : 0))).p50]));
  result.floor = durations(marks.floor);
  result.weft = durations(marks.weft);
  result.totals = { floor: summarize(marks.floor.map((mark) => mark.end)).p50, weft: summarize(marks.weft.map((mark) => mark.end)).p50 };
  result.ok = true;
} catch (error) {
  result.error = String(error?.stack ?? error);
} finally {
  for (const runner of Object.values(runners)) await runner.close();
}
writeFileSync(outFile, JSON.stringify(result));
process.exit(0);
