/**
 * One framework × scenario in a process of its own, driven by the orchestrator over IPC so that the
 * rows' timed runs can be interleaved in rounds (a burst of machine noise then hits every row alike):
 *
 *   → start                          ← ready { importMs, initMs } | failed { error }
 *   → batch { count, heap? }         ← batch { samples, cpuSamples, correct, failures, liveHeapMb? }
 *
 * `cpuSamples`: this process's CPU time (user + system, ms) per run — the framework's own work, without
 * the mock LLM's and the MCP server's (other processes), and far less moved by a loaded machine than
 * the wall time.
 *   → finish                         ← finished { peakRssMb, liveHeapMb? }, then the process exits
 *
 * `liveHeapMb` (the heap after a full collection) comes when the process runs with --expose-gc.
 *
 * The config comes as argv[2]: { runner, scenario, llmUrl, mcpServer, skillsDir }.
 */
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { peakRssMb } from "./peak-rss.mjs";
import { EXPECTED } from "./script.mjs";

const config = JSON.parse(process.argv[2]);
const send = (message) => new Promise((resolve) => process.send(message, resolve));
let agent;

/** Runs once and says whether the answer was right; keeps the first few failures readable. */
async function once(failures) {
  try {
    const answer = await agent.run();
    if (typeof answer === "string" && answer.includes(EXPECTED)) return true;
    failures.push(`answer without "${EXPECTED}": ${JSON.stringify(answer)?.slice(0, 300)}`);
  } catch (error) {
    failures.push(String(error?.stack ?? error).slice(0, 600));
  }
  return false;
}

async function start() {
  let started = performance.now();
  const runner = await import(pathToFileURL(config.runner).href);
  const importMs = performance.now() - started;
  started = performance.now();
  agent = await runner.setup(config);
  return { type: "ready", importMs, initMs: performance.now() - started };
}

async function batch(count, heap) {
  const samples = [];
  const cpuSamples = [];
  const failures = [];
  let correct = 0;
  for (let i = 0; i < count; i++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    if (await once(failures)) correct++;
    samples.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuSamples.push((used.user + used.system) / 1000);
  }
  return { type: "batch", samples, cpuSamples, correct, failures: failures.slice(0, 3), ...(heap ? { liveHeapMb: liveHeap() } : {}) };
}

async function finish() {
  const rss = peakRssMb();
  const liveHeapMb = liveHeap();
  await agent?.close();
  return { type: "finished", peakRssMb: rss, ...(liveHeapMb === undefined ? {} : { liveHeapMb }) };
}

/** The heap that survives a full collection, in MB; undefined without --expose-gc. */
function liveHeap() {
  if (typeof globalThis.gc !== "function") return undefined;
  globalThis.gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

// The orchestrator is gone (crashed or killed): nobody will ask for the result.
process.on("disconnect", () => process.exit(1));

process.on("message", async (message) => {
  try {
    if (message.type === "start") await send(await start());
    else if (message.type === "batch") await send(await batch(message.count, message.heap));
    else if (message.type === "finish") {
      await send(await finish());
      // Frameworks may keep handles open (telemetry timers, pools); the result is out, so leave.
      process.exit(0);
    }
  } catch (error) {
    await send({ type: "failed", error: String(error?.stack ?? error).slice(0, 2000) });
  }
});
