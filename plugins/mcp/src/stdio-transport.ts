import { spawn, type ChildProcess } from "node:child_process";
import { serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { NdjsonParser } from "@weft/sdk";
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
/** The longest line a server may send, as the SDK's own stdio transport allows. */
const MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * MCP over a child's stdin/stdout, like the SDK's StdioClientTransport but: no shell, the child leads its
 * own process group (so close kills what it spawned too: `npx` and its node, a shell and its pipeline),
 * stderr is always drained into a capped tail, and the exit code is kept for the failure report. Lines are
 * parsed once and checked for the JSON-RPC envelope by shape; the SDK validates every message's content
 * again when it handles it, so its zod parse of the envelope (a copy of each message) is not repeated.
 */
export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #options: StdioTransportOptions;
  #lines = new NdjsonParser(parseMessage);
  /** Bytes received since the last line ended. */
  #partialBytes = 0;
  readonly #stderr = new LineTail();
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #closeRequested = false;
  #stoppedByClose = false;

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

  /** Whether the process ended because `close` stopped it (a death that says nothing about the server). */
  get stoppedByClose(): boolean {
    return this.#stoppedByClose;
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
        this.#stoppedByClose = this.#closeRequested;
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
    const lastLf = chunk.lastIndexOf(LF);
    this.#partialBytes = lastLf === -1 ? this.#partialBytes + chunk.length : chunk.length - lastLf - 1;
    if (this.#partialBytes > MAX_LINE_BYTES) {
      this.#lines = new NdjsonParser(parseMessage);
      this.#partialBytes = 0;
      this.onerror?.(new Error(`the server sent a line longer than ${MAX_LINE_BYTES} bytes; it was dropped`));
      return;
    }
    // A line that is not JSON-RPC (a server logging to stdout) is reported and skipped.
    for (const message of this.#lines.push(chunk)) {
      if (message instanceof Error) this.onerror?.(message);
      else this.onmessage?.(message);
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
    this.#closeRequested = true;
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

const LF = 10;

/** One line: the message, or the error that says why it is not one. Never throws. */
function parseMessage(line: string): JSONRPCMessage | Error {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return asError(error);
  }
  if (isEnvelope(value)) return value;
  return new Error(`not a JSON-RPC message: ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
}

/** A request or notification (a method) or a response (an id), as JSON-RPC 2.0 frames them. */
function isEnvelope(value: unknown): value is JSONRPCMessage {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  return message.jsonrpc === "2.0" && (typeof message.method === "string" || "id" in message);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function spawnProblem(error: NodeJS.ErrnoException, command: string, cwd: string): string {
  if (error.code === "ENOENT") return `cannot start "${command}": no such program (or the working directory ${cwd} does not exist); check "command" and "cwd"`;
  if (error.code === "EACCES") return `cannot start "${command}": permission denied; make it executable`;
  return `cannot start "${command}": ${error.message}`;
}
