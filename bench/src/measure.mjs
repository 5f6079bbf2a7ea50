/**
 * One framework × scenario in its own process: import, init, 20 warm-ups, 300 timed runs, the
 * correctness of every answer, and this process's peak RSS. Writes one JSON result to argv[2].
 *
 *   node measure.mjs <out.json> <config json>
 *   config: { runner, scenario, llmUrl, mcpServer: {command, args}, skillsDir, warmups, runs }
 */
import { writeFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { peakRssMb } from "./peak-rss.mjs";
import { EXPECTED } from "./script.mjs";
import { summarize } from "./stats.mjs";

const [outFile, configText] = process.argv.slice(2);
const config = JSON.parse(configText);
const result = { scenario: config.scenario, ok: false };

async function measure() {
  let started = performance.now();
  const runner = await import(pathToFileURL(config.runner).href);
  result.importMs = performance.now() - started;

  started = performance.now();
  const agent = await runner.setup(config);
  result.initMs = performance.now() - started;

  const failures = [];
  const check = (answer) => {
    if (typeof answer === "string" && answer.includes(EXPECTED)) return true;
    if (failures.length < 3) failures.push(`answer without "${EXPECTED}": ${JSON.stringify(answer)?.slice(0, 300)}`);
    return false;
  };
  const once = async () => {
    try {
      return check(await agent.run());
    } catch (error) {
      if (failures.length < 3) failures.push(String(error?.stack ?? error).slice(0, 600));
      return false;
    }
  };

  try {
    let correct = 0;
    for (let i = 0; i < config.warmups; i++) if (await once()) correct++;
    const samples = [];
    for (let i = 0; i < config.runs; i++) {
      const start = performance.now();
      const passed = await once();
      samples.push(performance.now() - start);
      if (passed) correct++;
    }
    result.latency = summarize(samples);
    result.correct = correct;
    result.total = config.warmups + config.runs;
    result.failures = failures;
    result.peakRssMb = peakRssMb();
    result.ok = correct === result.total;
  } finally {
    await agent.close();
  }
}

try {
  await measure();
} catch (error) {
  result.error = String(error?.stack ?? error).slice(0, 2000);
}
writeFileSync(outFile, JSON.stringify(result));
// Frameworks may keep handles open (telemetry timers, pools); the result is written, so leave.
process.exit(0);
