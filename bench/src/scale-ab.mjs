/**
 * The scale rows of two weft builds in one process: for each point of a dimension (prior messages,
 * sessions at once, tool calls in one reply), the floor (floor-rpc), the baseline's weft and this
 * workspace's weft run in turn, in a rotating order, on the same mock LLM and MCP server. Reported
 * per side: the median CPU time of this process per run, and weft / floor for each build, so a
 * before/after survives a loaded machine (the three sides share it).
 *
 *   node src/scale-ab.mjs --old <dir> [--new <dir>] [--dimension prior|tools|sessions|parallel] [--points 10,100,1000] [--runs 40]
 *
 * `<dir>` holds the baseline's bench/src (a copy of this folder) beside its built packages, with a
 * node_modules whose @weft/* point at them (see the "Profiling" section of README.md). `--new` is
 * this workspace unless given; `--new` and `--old` naming two copies of one build measure the noise.
 * The mock LLM runs in the parent process, as in run.mjs, so the CPU time counted is the three sides'
 * alone (with the LLM in this process, its work would dilute every ratio towards 1).
 */
import { fork } from "node:child_process";
import { once } from "node:events";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { setup as floorSetup } from "./runners/floor-rpc.mjs";
import { setup as workspaceWeftSetup } from "./runners/weft.mjs";
import { EXPECTED, priorMessages, systemAskingCalls } from "./script.mjs";
import { summarize } from "./stats.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    old: { type: "string" },
    new: { type: "string" },
    dimension: { type: "string", default: "prior" },
    points: { type: "string" },
    runs: { type: "string", default: "40" },
    warmups: { type: "string", default: "10" },
    llm: { type: "string" },
  },
});
if (!flags.llm) {
  const llm = await startMockLlmServer();
  const child = fork(fileURLToPath(import.meta.url), [...process.argv.slice(2), "--llm", llm.url]);
  const [code] = await once(child, "exit");
  await llm.close();
  process.exit(code ?? 1);
}
if (!flags.old) throw new Error("name the baseline: --old <dir with bench/src and its built packages>");
const weftOf = async (dir) => (await import(pathToFileURL(join(resolve(dir), "bench/src/runners/weft.mjs")).href)).setup;
const oldWeftSetup = await weftOf(flags.old);
const weftSetup = flags.new ? await weftOf(flags.new) : workspaceWeftSetup;

const DIMENSIONS = {
  prior: { points: "10,100,1000", options: (n) => ({ prior: priorMessages(n) }) },
  tools: { points: "10,100,1000", options: (n) => ({ mcpServer: withTools(n), mcpServers: [withTools(n)] }) },
  sessions: { points: "1,10,100", options: (n) => ({ sessions: n }) },
  parallel: { points: "1,10,100", options: (n) => ({ system: systemAskingCalls(n) }) },
};
const dimension = DIMENSIONS[flags.dimension];
if (!dimension) throw new Error(`--dimension is one of ${Object.keys(DIMENSIONS).join(", ")}`);
const RUNS = Number(flags.runs);
const WARMUPS = Number(flags.warmups);

const mcpServer = { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] };
/** The MCP server publishing `n` tools in all (its 3 and `--tools n - 3`), as scale.mjs's tool-count rows. */
const withTools = (n) => ({ ...mcpServer, args: [...mcpServer.args, "--tools", String(n - 3)] });
const config = { llmUrl: flags.llm, mcpServer, scenario: "mcp" };

/** The floor has no sessions: n conversations at once are n runs at once. */
async function floorSide(options) {
  const floor = await floorSetup({ ...config, ...options });
  const sessions = options.sessions ?? 1;
  return { run: async () => (await Promise.all(Array.from({ length: sessions }, () => floor.run()))).join("\n"), close: () => floor.close() };
}

for (const n of (flags.points ?? dimension.points).split(",").map(Number)) {
  const options = dimension.options(n);
  const sides = { floor: await floorSide(options), old: await oldWeftSetup({ ...config, ...options }), new: await weftSetup({ ...config, ...options }) };
  const names = Object.keys(sides);
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  try {
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(i + k) % names.length];
        const before = process.cpuUsage();
        const answer = await sides[name].run();
        const used = process.cpuUsage(before);
        const answers = answer.split("\n");
        if (answers.length !== (options.sessions ?? 1) || !answers.every((text) => text.includes(EXPECTED))) throw new Error(`${name} answered wrong: ${answer.slice(0, 300)}`);
        if (i >= WARMUPS) cpu[name].push((used.user + used.system) / 1000);
      }
    }
  } finally {
    for (const side of Object.values(sides)) await side.close();
  }
  const p50 = Object.fromEntries(names.map((name) => [name, summarize(cpu[name]).p50]));
  const ratio = (a, b) => (a / b).toFixed(2);
  console.log(
    `${flags.dimension} ${n}: CPU ms/run floor ${p50.floor.toFixed(2)}, old ${p50.old.toFixed(2)}, new ${p50.new.toFixed(2)}; ` +
      `old/floor ${ratio(p50.old, p50.floor)}×, new/floor ${ratio(p50.new, p50.floor)}×, new/old ${ratio(p50.new, p50.old)}×`,
  );
}

process.exit(0);
