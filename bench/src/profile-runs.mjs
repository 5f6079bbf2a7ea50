/**
 * One runner's scenario on the mock LLM and MCP server, `--runs` conversations after `--warmups`, in
 * this process: run it under `--cpu-prof` (or `--heapsnapshot-signal`) to see where a run's CPU goes
 * without the row harness around it. Prints the CPU time per run.
 *
 *   node --cpu-prof --cpu-prof-dir=results.raw/profiles src/profile-runs.mjs [--runner weft] [--scenario mcp] [--runs 2000]
 *     [--calls N] [--sessions N] [--prior N]   (the scale rows: calls in one reply, sessions at once, prior messages)
 *     [--llm <url>]   (a mock LLM already running, `node src/mock-llm-server.mjs`, so the profile and the
 *                      CPU time are the runner's alone, as the rows count them)
 */
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { EXPECTED, scaleOptions } from "./script.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    runner: { type: "string", default: "weft" },
    scenario: { type: "string", default: "mcp" },
    runs: { type: "string", default: "2000" },
    warmups: { type: "string", default: "100" },
    calls: { type: "string" },
    sessions: { type: "string" },
    prior: { type: "string" },
    llm: { type: "string" },
  },
});
const llm = flags.llm ? { url: flags.llm, close() {} } : await startMockLlmServer();
const { setup } = await import(`./runners/${flags.runner}.mjs`);
const mcpServer = { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] };
const options = {
  scenario: flags.scenario,
  llmUrl: llm.url,
  mcpServer,
  skillsDir: join(srcDir, "..", "skills"),
  ...scaleOptions(flags),
};
const runner = await setup(options);
try {
  for (let i = 0; i < Number(flags.warmups); i++) await runner.run();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const runs = Number(flags.runs);
  for (let i = 0; i < runs; i++) {
    const answer = await runner.run();
    if (!answer.includes(EXPECTED)) throw new Error(`wrong answer: ${answer.slice(0, 200)}`);
  }
  const used = process.cpuUsage(cpuBefore);
  console.log(`${flags.runner} ${flags.scenario}: ${((used.user + used.system) / 1000 / runs).toFixed(3)} CPU ms/run, ${((performance.now() - started) / runs).toFixed(2)} ms/run`);
} finally {
  await runner.close();
  await llm.close();
}
