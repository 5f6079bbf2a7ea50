/**
 * Does weft's cost over the floor grow with the size of the work? For each scale row — tools
 * advertised, prior messages, tool calls in one reply, sessions at once, MCP servers — the fetch floor
 * (floor-rpc: fetch + the minimal JSON-RPC client, the faster fetch floor), the node:http floor
 * (floor-http: the same client on node:http, the true limit) and weft's `mcp` scenario run
 * in turn in this one process on the same mock LLM and MCP server(s), and the row reports the
 * medians and weft / each floor, in wall time and in this process's CPU time per run (the mock LLM and the
 * MCP servers are other processes; CPU time moves far less on a loaded machine). The goal: the ratio
 * does not grow along a dimension.
 *
 *   node scale.mjs <out.json> '{"llmUrl", "mcpServer"}' [--runs 100] [--only tools,prior]
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { setup as httpFloorSetup } from "./runners/floor-http.mjs";
import { setup as fetchFloorSetup } from "./runners/floor-rpc.mjs";
import { setup as weftSetup } from "./runners/weft.mjs";
import { EXPECTED, priorMessages, systemAskingCalls } from "./script.mjs";
import { summarize } from "./stats.mjs";

const { positionals, values: flags } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: "string", default: "100" }, warmups: { type: "string", default: "10" }, only: { type: "string" } },
});
const [outFile, configText] = positionals;
const config = JSON.parse(configText);
const RUNS = Number(flags.runs);
const WARMUPS = Number(flags.warmups);

const withTools = (n) => ({ ...config.mcpServer, args: [...config.mcpServer.args, "--tools", String(n - 3)] });

/** Each dimension: its points, and the setup options a point gives both sides. */
const DIMENSIONS = {
  tools: { label: "tools advertised", points: [10, 100, 1000], options: (n) => ({ mcpServer: withTools(n), mcpServers: [withTools(n)] }) },
  prior: { label: "prior messages", points: [10, 100, 1000], options: (n) => ({ prior: priorMessages(n) }) },
  parallel: { label: "tool calls in one reply", points: [1, 10, 100], options: (n) => ({ system: systemAskingCalls(n) }) },
  sessions: { label: "sessions at once", points: [1, 10, 100], options: (n) => ({ sessions: n }) },
  servers: { label: "MCP servers", points: [1, 5, 10], options: (n) => ({ mcpServers: Array.from({ length: n }, () => config.mcpServer) }) },
};

/** The floors have no sessions of their own: n conversations at once are n runs at once. */
async function floorRunner(setup, options) {
  const floor = await setup({ ...config, ...options });
  const sessions = options.sessions ?? 1;
  return {
    run: async () => (await Promise.all(Array.from({ length: sessions }, () => floor.run()))).join("\n"),
    close: () => floor.close(),
  };
}

/** weft and both floors, each run once per round, the order rotating so none always runs first. */
async function point(options) {
  const sides = {
    floor: await floorRunner(fetchFloorSetup, options),
    httpFloor: await floorRunner(httpFloorSetup, options),
    weft: await weftSetup({ ...config, ...options, scenario: "mcp" }),
  };
  const names = Object.keys(sides);
  const samples = Object.fromEntries(names.map((name) => [name, []]));
  const cpu = Object.fromEntries(names.map((name) => [name, []]));
  try {
    for (let i = 0; i < WARMUPS + RUNS; i++) {
      for (const name of [...names.slice(i % names.length), ...names.slice(0, i % names.length)]) {
        const cpuBefore = process.cpuUsage();
        const started = performance.now();
        const answer = await sides[name].run();
        const elapsed = performance.now() - started;
        const used = process.cpuUsage(cpuBefore);
        const answers = answer.split("\n");
        if (answers.length !== (options.sessions ?? 1) || !answers.every((text) => text.includes(EXPECTED))) {
          throw new Error(`${name} answered wrong: ${answer.slice(0, 300)}`);
        }
        if (i >= WARMUPS) {
          samples[name].push(elapsed);
          cpu[name].push((used.user + used.system) / 1000);
        }
      }
    }
  } finally {
    await Promise.all(Object.values(sides).map((side) => side.close()));
  }
  const p50 = (list) => summarize(list).p50;
  const [floorMs, httpFloorMs, weftMs] = [samples.floor, samples.httpFloor, samples.weft].map(p50);
  const [floorCpuMs, httpFloorCpuMs, weftCpuMs] = [cpu.floor, cpu.httpFloor, cpu.weft].map(p50);
  return {
    floorMs,
    weftMs,
    ratio: weftMs / floorMs,
    floorCpuMs,
    weftCpuMs,
    cpuRatio: weftCpuMs / floorCpuMs,
    httpFloorMs,
    httpFloorCpuMs,
    httpCpuRatio: weftCpuMs / httpFloorCpuMs,
  };
}

const only = flags.only?.split(",");
const result = { ok: true, runs: RUNS, dimensions: [] };
for (const [key, dimension] of Object.entries(DIMENSIONS)) {
  if (only && !only.includes(key)) continue;
  const rows = [];
  for (const n of dimension.points) {
    process.stderr.write(`scale ${key} ${n} ... `);
    try {
      rows.push({ n, ...(await point(dimension.options(n))) });
      process.stderr.write(`${rows.at(-1).ratio.toFixed(2)}x (CPU ${rows.at(-1).cpuRatio.toFixed(2)}x, ${rows.at(-1).httpCpuRatio.toFixed(2)}x the node:http floor's)\n`);
    } catch (error) {
      result.ok = false;
      rows.push({ n, error: String(error?.stack ?? error).slice(0, 1500) });
      process.stderr.write("FAILED\n");
    }
  }
  result.dimensions.push({ key, label: dimension.label, rows });
}
if (outFile !== "-") writeFileSync(outFile, JSON.stringify(result));
else console.log(JSON.stringify(result, null, 2));
process.exit(0);
