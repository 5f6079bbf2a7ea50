import { errorCode } from "./errors.js";
import type { ContentPart } from "./message.js";
import type { WeftServices } from "./plugin.js";
import { redactSecrets } from "./secret-redaction.js";
import type { ValidationOutcome } from "./tool-input.js";

/** Where a tool came from; shown by `weft tools` and used in duplicate warnings. */
export interface ToolSource {
  kind: "mcp" | "skill" | "pack" | "builtin" | "a2a" | "app";
  /** The MCP server, skill collection, plugin or agent that contributed it. */
  id: string;
}

/** Hints about a tool's behaviour (MCP's tool annotations). Advisory only. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A request to the host that a tool cannot settle itself: a question, an approval, an MCP
 * elicitation, an authorization URL. The agent hands it to the host's `waitFor`.
 */
export interface PendingRequest {
  kind: "question" | "approval" | "elicitation" | "authorization" | "input";
  /** What to show the person answering. */
  message: string;
  /** JSON Schema of the expected answer content (elicitation forms). */
  schema?: Record<string, unknown>;
  /** A URL to open (URL-mode elicitation, authorization). */
  url?: string;
  /** Anything the tool needs back with the answer to resume (e.g. a remote task id). */
  data?: unknown;
}

/** The host's answer to a PendingRequest. */
export interface PendingAnswer {
  action: "accept" | "decline" | "cancel";
  /** The answer itself: text for a question, form fields for an elicitation. */
  content?: unknown;
  /**
   * Why a `cancel` came without the host's word: its `waitFor` failed or timed out (`timeout`), the turn
   * was aborted while it waited (`aborted`), or the host sent new input instead (`abandoned`).
   */
  reason?: "timeout" | "aborted" | "abandoned";
}

/** A suspension as the host sees it: the request plus which call raised it. */
export interface Suspension extends PendingRequest {
  callId: string;
  toolName: string;
}

/** The host's resolver for suspensions. */
export type WaitFor = (suspension: Suspension, signal: AbortSignal) => Promise<PendingAnswer>;

/** What a tool can reach of the session its call runs in. */
export interface ToolSessionContext {
  readonly id: string;
  /** The agent running the session, when it named itself. */
  readonly agent?: string;
  /** A service of the session (its todo list) or, failing that, of the kernel; throws SERVICE_MISSING. */
  need<K extends keyof WeftServices>(name: K): WeftServices[K];
  has(name: keyof WeftServices): boolean;
}

export interface ToolContext {
  /** Aborted when the caller gives up or the time limit passes; a tool must stop when it fires. */
  signal: AbortSignal;
  /**
   * When the execute path gives up on the call (epoch ms, `Date.now()` clock); the signal aborts then.
   * A tool that reports its own timeout (partial output) plans with it instead of declaring a longer limit.
   */
  deadline?: number;
  callId: string;
  /** The session the call runs in; absent for a call made on the kernel itself. */
  session?: ToolSessionContext;
  /** Report progress; the kernel turns it into `tool.progress` feedback. */
  onProgress(progress: ToolProgress): void;
  /**
   * Present when this call re-runs after the host answered its `pending` request, whatever the answer:
   * `accept` with its content, `decline`, `cancel`, or `cancel` with a `reason` when no word came from the
   * host (timeout, abort, new input instead). The tool's result is what the model reads; after an abort
   * `ctx.signal` is already aborted, so the tool only tells its source (cancel a task, answer a question).
   */
  answer?: PendingAnswer;
  /** The request the answer belongs to. */
  pending?: PendingRequest;
  /**
   * Stable across retries of this call (session, turn and call id) when a durable runner executes it:
   * a tool that talks to an external system passes it on, so a call repeated after a crash is
   * recognised there and takes effect once.
   */
  idempotencyKey?: string;
}

/** What a tool gives back. A failure is a result with `isError`, never a thrown error that ends the turn. */
export interface ToolResult {
  /** The text the model reads. */
  output: string;
  /**
   * Images or documents the tool returned, in order with its text (see `mediaResult`): providers that
   * take them send these instead of `output`; the others send `output`, which names what is attached.
   */
  parts?: ContentPart[];
  isError?: boolean;
  /** Extra data for applications (MCP content blocks, exit codes); never sent to the model. */
  metadata?: Record<string, unknown>;
  /** A request to the host; the loop resumes the call with the answer. */
  pending?: PendingRequest;
}

/**
 * A tool whose `execute` takes `Args`. A list of tools of different arguments is `Tool[]` (`execute` is
 * a method, so a tool of its own arguments fits); a registry that never calls one itself holds `AnyTool`.
 */
export interface Tool<Args = Record<string, unknown>> {
  /** 1-64 characters of letters, digits, `_` and `-` (see `validToolName`). */
  name: string;
  description: string;
  /** JSON Schema with `type: "object"`; arguments are validated against it before `execute`. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema of the structured value the tool returns (MCP's `outputSchema`), when it declares one. */
  outputSchema?: Record<string, unknown>;
  /** Filled in by the registry when absent: the plugin or scope that added the tool. */
  source?: ToolSource;
  annotations?: ToolAnnotations;
  /** The call's time limit in ms; the kernel's default applies when absent. It is hard: see `ctx.deadline`. */
  timeoutMs?: number;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
  /**
   * The schema library's own validator (a Standard Schema tool). When present the kernel runs it in
   * place of its JSON Schema check and hands `execute` the value it returns (defaults, transforms).
   */
  validateInput?(args: unknown): Promise<ValidationOutcome>;
}

/**
 * A tool of any argument type, as registries hold them. Arguments are validated against `inputSchema`
 * before `execute`, so the erased type is safe where `Tool<any>` would switch checking off.
 */
export type AnyTool = Omit<Tool, "execute"> & { execute(args: never, ctx: ToolContext): Promise<ToolResult> };

/** One call to run through the kernel's execute path. */
export interface ToolCallRequest {
  /** Generated when absent. */
  id?: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface ExecuteOptions {
  signal?: AbortSignal;
  /** Overrides the tool's own limit and the kernel default. */
  timeoutMs?: number;
  onProgress?(progress: ToolProgress): void;
  answer?: PendingAnswer;
  pending?: PendingRequest;
  /** Handed to the tool as `ctx.idempotencyKey`. */
  idempotencyKey?: string;
}

/** Shorthand for an error result. */
export function errorResult(text: string, metadata?: Record<string, unknown>): ToolResult {
  // A failure often quotes what failed (a server's message, its environment): never a configured credential.
  const output = redactSecrets(text);
  return metadata ? { output, isError: true, metadata } : { output, isError: true };
}

/** Whether a call's signal aborted because the execute path's deadline passed (not the caller's abort). */
export function deadlinePassed(signal: AbortSignal): boolean {
  const reason: unknown = signal.reason;
  return signal.aborted && reason instanceof Error && errorCode(reason) === "DEADLINE_EXCEEDED";
}

/** The milliseconds a tool may still plan with: its own budget, cut to what is left before `ctx.deadline`. */
export function withinDeadline(budgetMs: number, ctx: Pick<ToolContext, "deadline">): number {
  return ctx.deadline === undefined ? budgetMs : Math.max(1, Math.min(budgetMs, ctx.deadline - Date.now()));
}
