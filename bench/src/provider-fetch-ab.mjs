/**
 * One model call's HTTP, three ways in one process, alternating rounds so the ratios survive a noisy
 * machine: bare `fetch` + `text()` (what the floor does), the baseline build's `providerFetch` and this
 * workspace's, each reading the whole streamed reply of the script's first turn from the mock LLM,
 * which runs in a child process so that its work is not counted. CPU and wall time per request.
 *
 *   node src/provider-fetch-ab.mjs --old <dir with the baseline's sdk/dist> [--rounds 10] [--requests 300]
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { MODEL_ID, PROMPT, SYSTEM, TOOL_DESCRIPTIONS } from "./script.mjs";

const srcDir = path.dirname(fileURLToPath(import.meta.url));
const { values: flags } = parseArgs({ options: { old: { type: "string" }, rounds: { type: "string", default: "10" }, requests: { type: "string", default: "300" } } });
if (!flags.old) throw new Error("name the baseline build: --old <dir with sdk/dist>");
const rounds = Number(flags.rounds);
const requests = Number(flags.requests);
const providerFetchOf = async (dir) => (await import(pathToFileURL(path.join(path.resolve(dir), "sdk/dist/provider/index.js")).href)).providerFetch;

const mock = spawn(process.execPath, ["--input-type=module", "-e", `const { startMockLlmServer } = await import(${JSON.stringify(pathToFileURL(path.join(srcDir, "mock-llm-server.mjs")).href)}); console.log((await startMockLlmServer()).url);`], { stdio: ["ignore", "pipe", "inherit"] });
const llmUrl = (await createInterface({ input: mock.stdout })[Symbol.asyncIterator]().next()).value;
const url = `${llmUrl}/v1/chat/completions`;
const tool = (name, properties) => ({ type: "function", function: { name, description: TOOL_DESCRIPTIONS[name], parameters: { type: "object", properties } } });
const body = {
  model: MODEL_ID,
  messages: [{ role: "system", content: SYSTEM }, { role: "user", content: PROMPT }],
  tools: [tool("get_weather", { city: { type: "string" } }), tool("add", { a: { type: "number" }, b: { type: "number" } })],
  stream: true,
};
const headers = { authorization: "Bearer bench" };
// An agent's model call carries the turn's signal.
const { signal } = new AbortController();

function viaProviderFetch(providerFetch) {
  return async () => {
    const response = await providerFetch({ url, headers, body, signal }, { provider: "bench" });
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of response.chunks()) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  };
}

const sides = {
  fetch: async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body), signal });
    return response.text();
  },
  old: viaProviderFetch(await providerFetchOf(flags.old)),
  new: viaProviderFetch(await providerFetchOf(path.join(srcDir, "..", ".."))),
};

const samples = Object.fromEntries(Object.keys(sides).map((name) => [name, { cpu: [], wall: [] }]));
try {
  for (const run of Object.values(sides)) for (let i = 0; i < 200; i++) if (!(await run()).includes("[DONE]")) throw new Error("the reply did not end with [DONE]");
  const names = Object.keys(sides);
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(round + i) % names.length]);
    for (const name of order) {
      const run = sides[name];
      const cpu = process.cpuUsage();
      const started = performance.now();
      for (let i = 0; i < requests; i++) await run();
      const wall = performance.now() - started;
      const used = process.cpuUsage(cpu);
      samples[name].cpu.push((used.user + used.system) / requests);
      samples[name].wall.push((wall * 1000) / requests);
    }
  }
} finally {
  mock.kill();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ratio = (a, b, what) => `${(median(samples[a][what]) / median(samples[b][what])).toFixed(2)}×`;
for (const [name, { cpu, wall }] of Object.entries(samples)) {
  console.log(`${name.padEnd(5)} CPU ${median(cpu).toFixed(0)} µs/request (${Math.min(...cpu).toFixed(0)}-${Math.max(...cpu).toFixed(0)}), wall ${median(wall).toFixed(0)} µs`);
}
for (const [a, b] of [["new", "old"], ["new", "fetch"], ["old", "fetch"]]) console.log(`${a}/${b}: CPU ${ratio(a, b, "cpu")}, wall ${ratio(a, b, "wall")}`);
