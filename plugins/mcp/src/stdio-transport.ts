import { spawn, type ChildProcess } from "node:child_process";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineTail } from "./line-tail.js";
import { killGroup, trackGroup, untrackGroup } from "./process-groups.js";

export interface StdioTransportOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Each complete stderr line, for the logger. */
  onStderrLine?(line: string): void;
}

/** How long a server gets to exit after SIGTERM before its group is killed. */
const TERM_GRACE_MS = 2_000;

/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport but: no shell, the child leads its
 * own process group (so close kills what it spawned too: `npx` and its node, a shell and its pipeline),
 * stderr is always drained into a capped tail, and the exit code is kept for the failure report.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioTransportOptions;
  readonly #readBuffer = new ReadBuffer();
  readonly #stderr = new LineTail();
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  constructor(options: StdioTransportOptions) {
    this.#options = options;
  }

  /** The last stderr lines, oldest first. */
  stderrTail(): string[] {
    return this.#stderr.lines();
  }

  /** How the process ended; undefined while it runs. */
  get exit(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.#exit;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  start(): Promise<void> {
    if (this.#child) throw new Error("StdioTransport already started");
    const { command, args, env, cwd } = this.#options;
    const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"], detached: true, shell: false, windowsHide: true });
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once("close", () => resolve()));
    return new Promise((resolve, reject) => {
      child.once("error", (error: NodeJS.ErrnoException) => {
        if (child.pid === undefined) {
          // The program never ran: a missing command or a cwd that does not exist.
          reject(new Error(spawnProblem(error, command, cwd), { cause: error }));
        } else {
          this.onerror?.(error);
        }
      });
      child.once("spawn", () => {
        trackGroup(child.pid!);
        resolve();
      });
      child.once("exit", (code, signal) => {
        this.#exit = { code, signal };
      });
      child.once("close", () => {
        if (child.pid !== undefined) untrackGroup(child.pid);
        this.onclose?.();
      });
      child.stdout!.on("data", (chunk: Buffer) => this.#receive(chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (chunk: string) => {
        for (const line of this.#stderr.push(chunk)) this.#options.onStderrLine?.(line);
      });
      // A write to a child that just died fails with EPIPE; the close handler reports the death.
      child.stdin!.on("error", () => {});
    });
  }

  #receive(chunk: Buffer): void {
    try {
      this.#readBuffer.append(chunk);
    } catch (error) {
      this.onerror?.(asError(error));
      return;
    }
    for (;;) {
      try {
        const message = this.#readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // A line that is not JSON-RPC (a server logging to stdout) is reported and skipped.
        this.onerror?.(asError(error));
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit || stdin.destroyed) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve) => {
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends stdin, SIGTERMs the whole group, and SIGKILLs it if the leader is still there after a grace period. */
  async close(): Promise<void> {
    const child = this.#child;
    if (!child || child.pid === undefined) return;
    const pid = child.pid;
    child.stdin?.end();
    if (!this.#exit) killGroup(pid, "SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, TERM_GRACE_MS)));
    await Promise.race([this.#exited, grace]);
    clearTimeout(timer);
    // Whatever the leader left behind in its group goes too.
    killGroup(pid, "SIGKILL");
    untrackGroup(pid);
    await this.#exited;
  }
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function spawnProblem(error: NodeJS.ErrnoException, command: string, cwd: string): string {
  if (error.code === "ENOENT") return `cannot start "${command}": no such program (or the working directory ${cwd} does not exist); check "command" and "cwd"`;
  if (error.code === "EACCES") return `cannot start "${command}": permission denied; make it executable`;
  return `cannot start "${command}": ${error.message}`;
}
