// The Restate runner against the in-process agent, on the same recipe and script (a turn of two
// model calls and two tool calls): the per-step overhead as a ratio, the same with the turn's events
// sent to the caller's relay, and sessions completed per second with one and two workers. Needs
// Node 22 (the Restate SDK does): "$(scripts/node22.sh)" bench/src/durable-restate.mjs [--json]
// (bench/src/durable.mjs runs it three times and gives ranges).
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createKernel } from "@weft/core";
import { restateAgentClient, inProcessAgent } from "@weft/restate";
import { freePort, startBalancer, startRestateServer } from "@weft/restate/testing";
import { defineTool } from "@weft/sdk";
import { scriptedModel, waitForProcessExit } from "@weft/sdk/testing";
import { recipeParts } from "../../restate/src/test-fixtures/recipe.mjs";

const TURNS = Number(process.env.TURNS ?? 40);
const SESSIONS = Number(process.env.SESSIONS ?? 60);
const STEPS_PER_TURN = 4; // model call, record, slow, model call
const WORKER = fileURLToPath(new URL("../../restate/src/test-fixtures/worker.mjs", import.meta.url));
const recipe = () => recipeParts({ createKernel, defineTool, scriptedModel, log: () => {} });

const median = (samples) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)];

async function inProcessTurns() {
  const samples = [];
  for (let index = 0; index < TURNS; index++) {
    const { agent, close } = await inProcessAgent(recipe, { sessionId: `local-${index}` });
    const started = performance.now();
    await agent.process(`refund ${index}`);
    samples.push(performance.now() - started);
    await close();
  }
  return median(samples);
}

const workers = [];
async function startWorker(port, env = {}) {
  const child = spawn(process.execPath, [WORKER], { stdio: "ignore", env: { PATH: process.env.PATH, WORKER_PORT: String(port), SIDE_EFFECTS: "/dev/null", ...env } });
  workers.push(child);
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/discover`).then((response) => response.status < 500, () => false);
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const server = await startRestateServer();
const balancers = [];
try {
  const client = restateAgentClient({ ingressUrl: server.ingressUrl });
  const ports = [await freePort(), await freePort()];
  for (const port of ports) await startWorker(port);
  const streaming = await freePort();
  await startWorker(streaming, { INGRESS_URL: server.ingressUrl });

  async function deployment(upstreams, label) {
    const balancer = await startBalancer(upstreams.map((port) => `http://127.0.0.1:${port}`));
    balancers.push(balancer);
    await server.register(balancer.url);
    // Warm up: the first invocation pays for discovery and connections.
    await client.process(`warm-${label}`, "refund 1");
  }

  await deployment([ports[0]], "one");
  const local = await inProcessTurns();
  const sequential = async (label) => {
    const samples = [];
    for (let index = 0; index < TURNS; index++) {
      const started = performance.now();
      await client.process(`${label}-${index}`, `refund ${index}`);
      samples.push(performance.now() - started);
    }
    return median(samples);
  };
  const durable = await sequential("seq");

  const throughput = async (label) => {
    const started = performance.now();
    await Promise.all(Array.from({ length: SESSIONS }, (_, index) => client.process(`${label}-${index}`, `refund ${index}`)));
    return SESSIONS / ((performance.now() - started) / 1000);
  };
  const oneWorker = await throughput("one");
  await deployment(ports, "two");
  const twoWorkers = await throughput("two");
  await deployment([streaming], "events");
  const withEvents = await sequential("events");

  if (process.argv.includes("--json")) {
    console.log(JSON.stringify({ turns: TURNS, sessions: SESSIONS, stepsPerTurn: STEPS_PER_TURN, inProcessMs: local, restateMs: durable, withEventsMs: withEvents, oneWorker, twoWorkers }));
    process.exitCode = 0;
  } else {
    console.log(`Restate runner vs in-process agent (${TURNS} sequential turns of ${STEPS_PER_TURN} steps, median per turn)`);
  console.log(`in-process turn        ${local.toFixed(2)} ms`);
  console.log(`restate turn           ${durable.toFixed(2)} ms   ${(durable / local).toFixed(1)}x in-process`);
  console.log(`per step overhead      ${((durable - local) / STEPS_PER_TURN).toFixed(2)} ms   (restate - in-process) / ${STEPS_PER_TURN} steps`);
  console.log(`with events to caller   ${withEvents.toFixed(2)} ms   ${(withEvents / durable).toFixed(2)}x without`);
  console.log(`sessions/s (${SESSIONS} concurrent one-turn sessions): 1 worker ${oneWorker.toFixed(1)}, 2 workers ${twoWorkers.toFixed(1)} (${(twoWorkers / oneWorker).toFixed(2)}x)`);
  }
} finally {
  for (const balancer of balancers) await balancer.close();
  for (const child of workers) {
    child.kill("SIGKILL");
    await waitForProcessExit(child.pid);
  }
  await server.stop();
}
