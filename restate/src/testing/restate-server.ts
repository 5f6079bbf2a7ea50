import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { freePort, waitForProcessExit } from "@weft/sdk/testing";

/** The real restate-server binary, as the npm package for this platform ships it. */
function serverBinary(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`@restatedev/restate-server-${process.platform}-${process.arch === "x64" ? "x64" : "arm64"}/package.json`)), "bin", "restate-server");
}

export async function until(what: string, check: () => Promise<boolean>, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface RestateServer {
  ingressUrl: string;
  adminUrl: string;
  /** Registers a worker deployment (HTTP/1.1: one request per invocation step, so any worker behind a balancer may take it). */
  register(uri: string): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the real restate-server from npm on 127.0.0.1 with a temp base dir; stop() kills it by PID and removes the dir. */
export async function startRestateServer(): Promise<RestateServer> {
  const base = mkdtempSync(join(tmpdir(), "weft-restate-"));
  const [ingress, admin, fabric] = [await freePort(), await freePort(), await freePort()];
  const log = openSync(join(base, "server.log"), "a");
  const child: ChildProcess = spawn(
    serverBinary(),
    ["--no-logo", "--base-dir", join(base, "data"), "--listen-mode", "tcp", "--bind-address", `127.0.0.1:${fabric}`, "--advertised-address", `http://127.0.0.1:${fabric}`],
    {
      stdio: ["ignore", log, log],
      env: {
        PATH: process.env.PATH,
        RESTATE_INGRESS__BIND_ADDRESS: `127.0.0.1:${ingress}`,
        RESTATE_ADMIN__BIND_ADDRESS: `127.0.0.1:${admin}`,
        RESTATE_DISABLE_TELEMETRY: "true",
        // Retry a lost worker soon, and let a waiting invocation suspend (freeing its worker) soon.
        RESTATE_DEFAULT_RETRY_POLICY__INITIAL_INTERVAL: "100ms",
        RESTATE_DEFAULT_RETRY_POLICY__MAX_INTERVAL: "500ms",
        RESTATE_WORKER__INVOKER__INACTIVITY_TIMEOUT: "1s",
      },
    },
  );
  const adminUrl = `http://127.0.0.1:${admin}`;
  const ingressUrl = `http://127.0.0.1:${ingress}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      child.kill("SIGKILL");
      await waitForProcessExit(child.pid);
    }
    rmSync(base, { recursive: true, force: true });
  };
  try {
    await until("restate-server", async () => (await fetch(`${adminUrl}/health`)).ok && (await fetch(`${ingressUrl}/restate/health`)).ok);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    ingressUrl,
    adminUrl,
    async register(uri) {
      const response = await fetch(`${adminUrl}/deployments`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ uri, use_http_11: true, force: true }),
      });
      if (!response.ok) throw new Error(`registering ${uri} failed: ${response.status} ${await response.text()}`);
    },
    stop,
  };
}
