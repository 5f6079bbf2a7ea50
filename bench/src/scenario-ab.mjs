/**
 * One scenario (`mcp`, `full`, `native`) of two weft builds in one process: the floor (floor-rpc),
 * the baseline's weft and this workspace's weft run in turn, in a rotating order, on the same mock
 * LLM and MCP server (in this process: the CPU counts the mock's share of every side alike). Reported
 * per side: the median CPU time and wall time per run, weft / floor for each build and new / old, and
 * the phase split (each phase's median, minus the floor's) as phase-split.mjs marks it.
 *
 *   node src/scenario-ab.mjs --old <dir> [--new <dir>] [--scenario mcp|full|native] [--runs 400] [--warmups 50]
 *
 * `<dir>` is a baseline as for scale-ab.mjs (see the "Profiling" section of README.md).
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { phaseMarked } from "./phase-marks.mjs";
import { setup as floorSetup } from "./runners/floor-rpc.mjs";
import { setup as workspaceWeftSetup } from "./runners/weft.mjs";
import { EXPECTED } from "./script.mjs";
import { summarize } from "./stats.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    old: { type: "string" },
    new: { type: "string" },
    scenario: { type: "string", default: "mcp" },
    runs: { type: "string", default: "400" },
    warmups: { type: "string", default: "50" },
  },
});
if (!flags.old) throw new Error("name the baseline: --old <dir with bench/src and its built packages>");
const weftOf = async (dir) => (await import(pathToFileURL(join(resolve(dir), "bench/src/runners/weft.mjs")).href)).setup;
const oldWeftSetup = await weftOf(flags.old);
const weftSetup = flags.new ? await weftOf(flags.new) : workspaceWeftSetup;
const RUNS = Number(flags.runs);
const WARMUPS = Number(flags.warmups);
/** The phases phase-split.mjs marks; the native scenario's runs mark them too. */
const PHASES = ["model1", "tools", "model2", "end"];

const llm = await startMockLlmServer();
const config = { llmUrl: llm.url, mcpServer: { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] }, skillsDir: join(srcDir, "..", "skills") };

/** A side whose runs return their CPU time and phase marks, after checking the answer. */
async function side(setup, scenario) {
  const runner = await phaseMarked(setup, { ...config, scenario });
  return {
    async run() {
      const { answer, cpu, marks } = await runner.run();
      if (!answer.includes(EXPECTED)) throw new Error(`wrong answer: ${answer.slice(0, 300)}`);
      return { cpu, marks };
    },
    close: () => runner.close(),
  };
}

const sides = {};
try {
  // The floor plays the same scenario: in `full` its requests carry the skills catalog and local tools too.
  sides.floor = await side(floorSetup, flags.scenario);
  sides.old = await side(oldWeftSetup, flags.scenario);
  sides.new = await side(weftSetup, flags.scenario);
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < WARMUPS + RUNS; i++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(i + k) % names.length];
      const sample = await sides[name].run();
      if (i >= WARMUPS) samples[name].push(sample);
    }
  }
  const p50 = (name, of) => summarize(samples[name].map(of)).p50;
  const cpu = Object.fromEntries(names.map((name) => [name, p50(name, (sample) => sample.cpu)]));
  const wall = Object.fromEntries(names.map((name) => [name, p50(name, (sample) => sample.marks.end)]));
  const ratio = (a, b) => `${(a / b).toFixed(2)}×`;
  console.log(
    `${flags.scenario}: CPU ms/run floor ${cpu.floor.toFixed(2)}, old ${cpu.old.toFixed(2)}, new ${cpu.new.toFixed(2)}; ` +
      `old/floor ${ratio(cpu.old, cpu.floor)}, new/floor ${ratio(cpu.new, cpu.floor)}, new/old ${ratio(cpu.new, cpu.old)}; ` +
      `wall old/floor ${ratio(wall.old, wall.floor)}, new/floor ${ratio(wall.new, wall.floor)}, new/old ${ratio(wall.new, wall.old)}`,
  );
  // Each phase's own duration: from the previous mark to this one.
  const phase = (name, index) => p50(name, ({ marks }) => marks[PHASES[index]] - (index ? marks[PHASES[index - 1]] : 0));
  for (const [index, name] of PHASES.entries()) {
    const floor = phase("floor", index);
    console.log(`  ${name.padEnd(6)} floor ${floor.toFixed(3)} ms, old − floor ${(phase("old", index) - floor).toFixed(3)}, new − floor ${(phase("new", index) - floor).toFixed(3)}`);
  }
} finally {
  for (const runner of Object.values(sides)) await runner.close();
  await llm.close();
}
process.exit(0);
