/**
 * What one run allocates: a runner's scenario on the mock LLM and MCP server (as profile-runs.mjs),
 * `--runs` conversations under V8's sampling heap profiler with the objects that were collected
 * again counted too, so the figure is the allocation of a run (what the garbage collector has to
 * clear), not what stays live. Prints KB per run, and the functions that allocate most (what a
 * built-in allocates counts for the function that called it).
 *
 *   node src/alloc-per-run.mjs [--runner weft] [--scenario mcp] [--runs 500] [--prior N] [--sessions N] [--calls N] [--top 25]
 *
 * The mock LLM runs in another process here, so its allocation is not counted.
 */
import { fork } from "node:child_process";
import { Session } from "node:inspector/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startMockLlmServer } from "./mock-llm-server.mjs";
import { EXPECTED, scaleOptions } from "./script.mjs";

const srcDir = dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({
  options: {
    runner: { type: "string", default: "weft" },
    scenario: { type: "string", default: "mcp" },
    runs: { type: "string", default: "500" },
    warmups: { type: "string", default: "50" },
    calls: { type: "string" },
    sessions: { type: "string" },
    prior: { type: "string" },
    top: { type: "string", default: "25" },
    // Internal: this file started again as the mock LLM's process.
    "mock-llm": { type: "boolean" },
  },
});
/** The mock LLM in a child process, so only the runner's own allocation is sampled. */
async function mockLlm() {
  const child = fork(fileURLToPath(import.meta.url), ["--mock-llm"], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const url = await new Promise((resolve, reject) => {
    child.once("message", (message) => resolve(message.url));
    child.once("exit", (code) => reject(new Error(`the mock LLM exited (${code})`)));
  });
  return { url, close: () => child.disconnect() };
}


async function main() {
  const llm = await mockLlm();
  const { setup } = await import(`./runners/${flags.runner}.mjs`);
  const runner = await setup({
    scenario: flags.scenario,
    llmUrl: llm.url,
    mcpServer: { command: process.execPath, args: [join(srcDir, "mcp-server.mjs")] },
    skillsDir: join(srcDir, "..", "skills"),
    ...scaleOptions(flags),
  });
  const session = new Session();
  session.connect();
  try {
    for (let i = 0; i < Number(flags.warmups); i++) await runner.run();
    await session.post("HeapProfiler.startSampling", { samplingInterval: 1024, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    const runs = Number(flags.runs);
    for (let i = 0; i < runs; i++) {
      const answer = await runner.run();
      if (!answer.includes(EXPECTED)) throw new Error(`wrong answer: ${answer.slice(0, 200)}`);
    }
    const { profile } = await session.post("HeapProfiler.stopSampling");
    const byFunction = new Map();
    let total = 0;
    // A built-in's allocation (a Map, a promise, `next`) counts for the nearest caller with a file of its own.
    const walk = (node, owner) => {
      const { functionName, url, lineNumber } = node.callFrame;
      const own = url.startsWith("file:") ? `${functionName || "(anonymous)"} ${url.split("/").slice(-3).join("/")}:${lineNumber + 1}` : owner;
      const size = node.selfSize;
      total += size;
      if (size > 0) byFunction.set(own, (byFunction.get(own) ?? 0) + size);
      for (const child of node.children) walk(child, own);
    };
    walk(profile.head, "(outside any file)");
    console.log(`${flags.runner} ${flags.scenario}${flags.prior ? ` prior ${flags.prior}` : ""}${flags.sessions ? ` sessions ${flags.sessions}` : ""}${flags.calls ? ` calls ${flags.calls}` : ""}: ${(total / 1024 / runs).toFixed(1)} KB allocated per run`);
    for (const [key, size] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(flags.top))) {
      console.log(`${(size / 1024 / runs).toFixed(1).padStart(8)} KB  ${key}`);
    }
  } finally {
    session.disconnect();
    await runner.close();
    llm.close();
  }
}

if (flags["mock-llm"]) {
  const llm = await startMockLlmServer();
  process.send?.({ url: llm.url });
  process.once("disconnect", () => void llm.close().then(() => process.exit(0)));
} else await main();
