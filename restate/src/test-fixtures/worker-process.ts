import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { waitForProcessExit } from "@weft/sdk/testing";
import { until } from "../testing/restate-server.js";

const WORKER = fileURLToPath(new URL("./worker.mjs", import.meta.url));

export interface WorkerProcess {
  pid: number;
  kill(): Promise<void>;
}

/** The Node 22 the workers need (the Restate SDK uses Promise.withResolvers); scripts/ci-restate.sh provides it. */
function node22(): string {
  const binary = process.env.WEFT_NODE22;
  if (!binary) throw new Error("the Restate workers need Node 22: run these tests with bash scripts/ci-restate.sh (it installs the node@22 npm package and sets WEFT_NODE22)");
  return binary;
}

/** A worker process on `port`; resolves once it listens. */
export async function startWorker(port: number, sideEffects: string, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const child = spawn(node22(), [WORKER], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { PATH: process.env.PATH, WORKER_PORT: String(port), SIDE_EFFECTS: sideEffects, ...env },
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error("the worker did not start");
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await waitForProcessExit(pid);
  };
  try {
    await until(`the worker on ${port}`, async () => (await fetch(`http://127.0.0.1:${port}/discover`, { headers: { accept: "application/vnd.restate.endpointmanifest.v1+json" } })).status < 500);
  } catch (error) {
    await kill();
    throw error;
  }
  return { pid, kill };
}
