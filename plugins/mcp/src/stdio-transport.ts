import { spawn, type ChildProcess } from "node:child_process";
import { serializeMessage } from "@modelcontextprotocol/client";
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";
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
  /** The first bytes of the line being received, where a response's id may be. */
  #lineHead: Buffer = NO_BYTES;
  /** A line past the limit being skipped: its first and last bytes (for its id) and its size so far. */
  #oversized: { head: Buffer; tail: Buffer; bytes: number } | undefined;
  readonly #stderr = new LineTail();
  #child: ChildProcess | undefined;
  #exited: Promise<void> | undefined;
  #exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  #closeRequested = false;
  #stoppedByClose = false;
  /** The messages sent in this run of the event loop, written together at its end. */
  #outbox = "";
  /** While the pipe is full: the drain every message sent meanwhile waits for. */
  #drained: Promise<void> | undefined;

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

  /**
   * Never handed out (stderr is drained into the tail). It exists because the SDK's version negotiation
   * tells a stdio transport by its `pid` and `stderr` members: on stdio, a server that does not answer the
   * `server/discover` probe in time is a 2025-era server, where over HTTP silence is an outage.
   */
  get stderr(): null {
    return null;
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
        // A spawned child has its pid.
        if (child.pid !== undefined) trackGroup(child.pid);
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
      child.stdout.on("data", (chunk: Buffer) => this.#receive(chunk));
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        for (const line of this.#stderr.push(chunk)) this.#options.onStderrLine?.(line);
      });
      // A write to a child that just died fails with EPIPE; the close handler reports the death.
      child.stdin.on("error", () => {});
    });
  }

  #receive(chunk: Buffer): void {
    const lastLf = chunk.lastIndexOf(LF);
    if (this.#oversized) {
      if (lastLf === -1) {
        this.#oversized.tail = lastBytes(Buffer.concat([this.#oversized.tail, chunk]));
        return;
      }
      const lineEnd = chunk.indexOf(LF);
      this.#refuse(this.#oversized.head, lastBytes(Buffer.concat([this.#oversized.tail, chunk.subarray(0, lineEnd)])), this.#oversized.bytes + lineEnd);
      this.#oversized = undefined;
      chunk = chunk.subarray(lineEnd + 1);
      this.#partialBytes = 0;
      this.#lineHead = NO_BYTES;
      if (chunk.length === 0) return;
      this.#receive(chunk);
      return;
    }
    // A chunk that ends its last line (as a server writing whole messages sends them) begins none.
    if (lastLf === chunk.length - 1) this.#lineHead = NO_BYTES;
    else if (lastLf !== -1) this.#lineHead = chunk.subarray(lastLf + 1, lastLf + 1 + ID_WINDOW);
    else if (this.#lineHead.length < ID_WINDOW) this.#lineHead = Buffer.concat([this.#lineHead, chunk.subarray(0, ID_WINDOW - this.#lineHead.length)]);
    this.#partialBytes = lastLf === -1 ? this.#partialBytes + chunk.length : chunk.length - lastLf - 1;
    if (this.#partialBytes > MAX_LINE_BYTES) {
      // Everything complete before the long line is still delivered; the long line is skipped to its end.
      const complete = lastLf === -1 ? NO_BYTES : chunk.subarray(0, lastLf + 1);
      const head = this.#lineHead;
      this.#lines = new NdjsonParser(parseMessage);
      for (const message of this.#lines.push(complete)) this.#deliver(message);
      this.#lines = new NdjsonParser(parseMessage);
      this.#oversized = { head, tail: lastBytes(chunk), bytes: this.#partialBytes };
      return;
    }
    // A line that is not JSON-RPC (a server logging to stdout) is reported and skipped.
    for (const message of this.#lines.push(chunk)) this.#deliver(message);
  }

  #deliver(message: JSONRPCMessage | Error): void {
    if (message instanceof Error) this.onerror?.(message);
    else this.onmessage?.(message);
  }

  /**
   * A line too long to take: when it answers a request (its id found at its start or its end), that
   * request gets an error at once instead of waiting out its time limit.
   */
  #refuse(head: Buffer, tail: Buffer, bytes: number): void {
    const problem = `the server sent a message of ${bytes} bytes, over the ${MAX_LINE_BYTES}-byte limit for one stdio message; it was dropped`;
    const id = responseId(head.toString("utf8"), tail.toString("utf8"));
    if (id === undefined) {
      this.onerror?.(new Error(problem));
      return;
    }
    this.onmessage?.({ jsonrpc: "2.0", id, error: { code: OVERSIZED_MESSAGE, message: problem } });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#child?.stdin;
    if (!stdin || this.#exit || stdin.destroyed) return Promise.reject(new Error("Not connected"));
    // The messages sent in one run of the event loop (the calls of one tool round) leave in one write of
    // one string: a system call per message cost more than everything else of sending it, and a corked
    // stream's bookkeeping per message (its buffered entry, its slot in the writev) as much as encoding it.
    if (this.#outbox === "") process.nextTick(() => this.#flush());
    this.#outbox += serializeMessage(message);
    return this.#drained ?? SENT;
  }

  /** Writes what was sent; when the pipe is full, the messages sent until it drains wait for that. */
  #flush(): void {
    const text = this.#outbox;
    const stdin = this.#child?.stdin;
    this.#outbox = "";
    if (!text || !stdin || stdin.destroyed || stdin.write(text) || this.#drained) return;
    // One listener for all of them: a round of large calls would otherwise add one each (and, past ten,
    // make Node warn of a leak).
    this.#drained = new Promise((resolve) =>
      stdin.once("drain", () => {
        this.#drained = undefined;
        resolve();
      }),
    );
  }

  /** Ends stdin, SIGTERMs the whole group, and SIGKILLs it if the leader is still there after a grace period. */
  async close(): Promise<void> {
    this.#closeRequested = true;
    const child = this.#child;
    if (!child || child.pid === undefined) return;
    const pid = child.pid;
    // What was sent just before goes out first, as a shutdown notice must.
    this.#flush();
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
const NO_BYTES = Buffer.alloc(0);
/** What a send returns when its message is on its way: one promise, already resolved, for all of them. */
const SENT: Promise<void> = Promise.resolve();
/** How many bytes at each end of a long line are kept to find its id. */
const ID_WINDOW = 256;
/** JSON-RPC "internal error": what a call whose answer was too long receives. */
const OVERSIZED_MESSAGE = -32603;

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length <= ID_WINDOW ? buffer : buffer.subarray(buffer.length - ID_WINDOW);
}

/**
 * The id of a response from the ends of its text: the last key of the object (as the TypeScript SDK
 * writes it) or a key before `result`/`error` (as most others do).
 */
function responseId(head: string, tail: string): string | number | undefined {
  const last = /"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/.exec(tail)?.[1];
  const first = /^\{(?:(?!"(?:result|error)").)*?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/.exec(head)?.[1];
  const raw = last ?? first;
  if (raw === undefined) return undefined;
  return JSON.parse(raw) as string | number;
}

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
