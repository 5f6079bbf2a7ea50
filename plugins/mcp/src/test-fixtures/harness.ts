/** Shared by the MCP tests: where the real servers live, and the plumbing to start and observe them. */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { PLUGIN_API_VERSION, definePlugin, type FeedbackEvent, type McpHost } from "@weft/sdk";
import type { Kernel } from "@weft/sdk";

const modules = fileURLToPath(new URL("../../../../node_modules/", import.meta.url));

/** The npm servers' entry points, run with this node (no npx at test time). */
export const SERVERS = {
  everything: `${modules}@modelcontextprotocol/server-everything/dist/index.js`,
  filesystem: `${modules}@modelcontextprotocol/server-filesystem/dist/index.js`,
  memory: `${modules}@modelcontextprotocol/server-memory/dist/index.js`,
  test: fileURLToPath(new URL("./test-server.mjs", import.meta.url)),
  /** Built on @modelcontextprotocol/server 2.x: `--era=2026` or `--era=2025` (see the file). */
  twoEra: fileURLToPath(new URL("./two-era-server.mjs", import.meta.url)),
  tasks: fileURLToPath(new URL("./task-server.mjs", import.meta.url)),
  /** Hand-written, no SDK: keeps the request ids and cancellations it receives (see the file). */
  wire: fileURLToPath(new URL("./wire-server.mjs", import.meta.url)),
};

/** A stdio entry running one of SERVERS with this node. */
export function stdio(server: keyof typeof SERVERS, ...args: string[]): { command: string; args: string[] } {
  return { command: process.execPath, args: [SERVERS[server], ...args] };
}

/** How long `vi.waitFor` polls for something with no event to wait on: roomy, for a loaded machine. */
export const WAIT = { timeout: 10_000, interval: 50 };

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

/**
 * server-everything over HTTP (`streamableHttp` or legacy `sse`) on a free port (or `port`, to restart one);
 * resolves once it listens. `output()` is what it logged so far.
 */
export async function startEverythingHttp(mode: "streamableHttp" | "sse", port?: number): Promise<{ port: number; output(): string; stop(): Promise<void> }> {
  port ??= await freePort();
  const child: ChildProcess = spawn(process.execPath, [SERVERS.everything, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/listening|running on port/i.test(output)) resolve();
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${output}`)));
  });
  return {
    port,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** The two-era server over Streamable HTTP on a free port; resolves once it listens. */
export async function startTwoEraHttp(...args: string[]): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVERS.twoEra, `--http=${port}`, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes(`listening ${port}`)) resolve();
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`two-era-server exited (${code}): ${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** A plugin that records every feedback event, for asserting what the MCP plugin reported. */
export function feedbackRecorder(): { plugin: ReturnType<typeof definePlugin>; events: FeedbackEvent[] } {
  const events: FeedbackEvent[] = [];
  const plugin = definePlugin({
    meta: { name: "feedback-recorder", version: "1.0.0", api: PLUGIN_API_VERSION },
    setup(api) {
      api.hooks.feedback.tap((event) => void events.push(event));
    },
  });
  return { plugin, events };
}

/** The `mcp` service of a kernel, as another plugin or the CLI would get it. */
export function mcpHost(kernel: Kernel): McpHost {
  return kernel.scope("test").need("mcp");
}

/** Whether a process is still running: a zombie (dead, not yet reaped) counts as gone. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}
