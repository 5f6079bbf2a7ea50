// A weft worker process: serves the agent object over HTTP/1.1 on WORKER_PORT (runs the built package).
// SIDE_EFFECTS names a file each completed tool call and model call appends a line to; HANG makes
// this worker hang in the first `slow` tool call ("tool") or in a model call after a tool round
// ("model"), or after the first word a model call streams after a tool round ("stream"), writing a
// line "hanging <what>" first, so the test can SIGKILL it there. INGRESS_URL: the turn's events go to
// the relay object (served here too) through that ingress. LOG_EVENTS=1: every feedback event the
// worker's kernel hears is logged ("event <type>"); LOG_LIFECYCLE=1: each build and close of the
// recipe's parts. STORE_OBJECTS=n: also serves the agent object as weft-store-1..n, one per test of
// the session store suite.
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import * as restate from "@restatedev/restate-sdk";
import { createKernel, todowriteTool } from "@weft/core";
import { ProviderError, defineTool } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { restateAgent, turnEventsObject } from "../../dist/index.js";
import { recipeParts } from "./recipe.mjs";

const { WORKER_PORT, SIDE_EFFECTS, HANG = "", WORKER_NAME = "worker", MODEL_RETRY, LOG_DELTAS, LOG_EVENTS, LOG_LIFECYCLE, INGRESS_URL, STORE_OBJECTS = "0" } = process.env;
const log = (line) => appendFileSync(SIDE_EFFECTS, `${line}\n`);
const hang = (what) => {
  log(`hanging ${what} ${WORKER_NAME}`);
  return new Promise(() => {});
};

const agent = restateAgent(
  () =>
    recipeParts({ createKernel, defineTool, scriptedModel, log, hang: HANG ? hang : undefined, hangWhat: HANG, worker: WORKER_NAME, ProviderError, todowriteTool, logDeltas: LOG_DELTAS === "1", logEvents: LOG_EVENTS === "1", logLifecycle: LOG_LIFECYCLE === "1" }),
  {
    // MODEL_RETRY: the model retry policy as JSON.
    ...(MODEL_RETRY ? { modelRetry: JSON.parse(MODEL_RETRY) } : {}),
    ...(INGRESS_URL ? { events: { ingressUrl: INGRESS_URL } } : {}),
  },
);
const stores = Array.from({ length: Number(STORE_OBJECTS) }, (_, index) => restateAgent(() => recipeParts({ createKernel, defineTool, scriptedModel, log }), { name: `weft-store-${index + 1}` }));
const server = createServer(restate.createEndpointHandler({ services: [agent, turnEventsObject(), ...stores] }));
server.listen(Number(WORKER_PORT), "127.0.0.1", () => log(`listening ${WORKER_NAME}`));
