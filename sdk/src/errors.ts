import { redactSecrets } from "./secret-redaction.js";
/**
 * Errors an application sees. Each has a stable `code` to branch on, a message that says what to do,
 * and the underlying `cause`. A tool failure is never one of these: it is a ToolResult the model reads.
 */
export type WeftErrorCode =
  | "CONFIG_INVALID"
  | "CONFIG_NOT_FOUND"
  | "PROJECT_UNTRUSTED"
  | "PLUGIN_NOT_FOUND"
  | "PLUGIN_INVALID"
  | "PLUGIN_API_MISMATCH"
  | "PLUGIN_REQUIRES"
  | "PLUGIN_DUPLICATE"
  | "PLUGIN_OPTIONS_INVALID"
  | "PLUGIN_SETUP_FAILED"
  | "SERVICE_MISSING"
  | "PROVIDER_UNKNOWN"
  | "PROVIDER_ERROR"
  | "MODEL_INVALID"
  | "EFFORT_INVALID"
  | "CREDENTIAL_MISSING"
  | "KERNEL_CLOSED"
  | "TOOL_NAME_INVALID"
  | "SCHEMA_INVALID"
  | "MAX_ITERATIONS"
  | "CONTEXT_OVERFLOW"
  | "ABORTED"
  | "DEADLINE_EXCEEDED"
  | "MCP_CONFIG_INVALID"
  | "MCP_SERVER_UNKNOWN"
  | "MCP_SERVER_EXISTS"
  | "MCP_SERVER_UNAVAILABLE"
  | "MCP_SERVER_FAILED"
  | "MCP_REQUEST_FAILED"
  | "MCP_AUTH_FAILED"
  | "SKILL_INVALID"
  | "PATH_REFUSED"
  | "SKILL_INVALID_NAME"
  | "SKILL_FOLDER_NOT_FOUND"
  | "SKILL_INVALID_FRONTMATTER"
  | "AGENT_BUSY"
  | "NO_PENDING_REQUEST"
  | "SESSION_INVALID"
  | "SESSION_CLOSED"
  | "HOOK_FAILED"
  | "SERVICE_DUPLICATE"
  | "SESSION_CONFLICT"
  | "OUTPUT_INVALID";

export interface WeftErrorOptions {
  cause?: unknown;
}

export class WeftError extends Error {
  readonly code: WeftErrorCode;
  constructor(code: WeftErrorCode, message: string, options: WeftErrorOptions = {}) {
    // Redacted here so that no typed error, whoever builds it, carries a configured credential.
    super(redactSecrets(message), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
  }
}

/** Where in a config file a problem is: the file, 1-based line and column, and the option path. */
export interface ConfigLocation {
  file: string;
  line?: number;
  column?: number;
  /** Option path, e.g. `plugins[2].files.root`. */
  path?: string;
}

/** A bad config file or option. The message starts with `file:line:column`. */
export class ConfigError extends WeftError {
  readonly location: ConfigLocation;
  constructor(location: ConfigLocation, problem: string, options: WeftErrorOptions & { code?: WeftErrorCode } = {}) {
    const where = [location.file, location.line, location.column].filter((part) => part !== undefined).join(":");
    const path = location.path ? ` (option ${location.path})` : "";
    super(options.code ?? "CONFIG_INVALID", `${where}${path}: ${problem}`, options);
    this.location = location;
  }
}

export interface ProviderErrorDetails {
  provider: string;
  /** HTTP status, or undefined for network errors, timeouts and mid-stream errors without one. */
  status?: number;
  /** The provider's own error message and type, when it sent them. */
  providerMessage?: string;
  providerType?: string;
  /** How many times the request was retried before this error. */
  retries: number;
  /** A failure worth another try (overloaded, rate limited), had nothing been streamed yet. */
  retryable?: boolean;
}

/** A provider's HTTP or stream failure, after retries. */
export class ProviderError extends WeftError implements ProviderErrorDetails {
  readonly provider: string;
  readonly status?: number;
  readonly providerMessage?: string;
  readonly providerType?: string;
  readonly retries: number;
  readonly retryable: boolean;
  constructor(message: string, details: ProviderErrorDetails, options: WeftErrorOptions = {}) {
    super("PROVIDER_ERROR", `${details.provider}: ${message}`, options);
    this.provider = details.provider;
    this.status = details.status;
    this.providerMessage = details.providerMessage === undefined ? undefined : redactSecrets(details.providerMessage);
    this.providerType = details.providerType;
    this.retries = details.retries;
    this.retryable = details.retryable ?? false;
  }
  /** Whether the request was retried before failing. */
  get retried(): boolean {
    return this.retries > 0;
  }
}

/**
 * A tap threw. Names the hook and the plugin that tapped it; the original error is the cause. In the
 * execute path it becomes an error result the model reads; in `prompt` / `beforeModelCall` it fails the turn.
 */
export class HookFailedError extends WeftError {
  readonly hook: string;
  readonly plugin: string;
  constructor(hook: string, plugin: string, cause: unknown) {
    super("HOOK_FAILED", `${hook} tap of ${plugin} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.hook = hook;
    this.plugin = plugin;
  }
}

/** The agent hit `maxIterations`; the transcript so far is kept. */
export class MaxIterationsError extends WeftError {
  readonly iterations: number;
  constructor(iterations: number) {
    super("MAX_ITERATIONS", `stopped after ${iterations} iterations (maxIterations); raise the limit or continue with another process() call`);
    this.iterations = iterations;
  }
}

/** A part of the prompt that compaction may not touch, with its estimated size. */
export interface ProtectedPart {
  /** What it is, as the error message names it: `the system prompt and tool definitions`, ... */
  what: string;
  tokens: number;
}

/**
 * Compaction could not bring the prompt under the model's context window: what it may not touch is too
 * large by itself. The request was not sent; the transcript is as compaction left it.
 */
export class ContextOverflowError extends WeftError {
  readonly estimatedTokens: number;
  readonly contextWindow: number;
  readonly protectedParts: ProtectedPart[];
  constructor(model: string, estimatedTokens: number, contextWindow: number, protectedParts: ProtectedPart[]) {
    const parts = protectedParts.map((part) => `${part.what} (~${part.tokens} tokens)`).join(", ");
    super(
      "CONTEXT_OVERFLOW",
      `the next request to ${model} needs ~${estimatedTokens} tokens, more than its context window of ${contextWindow}, and compaction left only what it must keep: ${parts}; shorten the input or the tool output, or use a model with a larger window`,
    );
    this.estimatedTokens = estimatedTokens;
    this.contextWindow = contextWindow;
    this.protectedParts = protectedParts;
  }
}

/**
 * A session write based on a version that is no longer current: another worker wrote the session
 * first (or deleted it). Nothing was written; reload the session and decide again.
 */
export class SessionConflictError extends WeftError {
  readonly sessionId: string;
  readonly expectedVersion: number;
  /** The version the store holds; undefined when the session does not exist. */
  readonly actualVersion: number | undefined;
  constructor(sessionId: string, expectedVersion: number, actualVersion: number | undefined) {
    const found = actualVersion === undefined ? "it does not exist" : `it is at version ${actualVersion}`;
    super("SESSION_CONFLICT", `session "${sessionId}" was written by someone else (expected version ${expectedVersion}, ${found}); reload it and try again`);
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}

/**
 * A structured-output reply that was still invalid after the repair round. `text` is the model's
 * last reply as it came; `problems` are the failing paths, one line each (`/path: message`).
 */
export class OutputValidationError extends WeftError {
  readonly text: string;
  readonly problems: readonly string[];
  constructor(model: string, text: string, problems: readonly string[]) {
    super("OUTPUT_INVALID", `${model}: the reply does not match the output schema after a repair round: ${problems.join("; ")}`);
    this.text = text;
    this.problems = problems;
  }
}

/**
 * Whether `error` is a WeftError. Checks the shape, not the class: a plugin may load its own copy of
 * the sdk, whose classes differ from the host's while the codes agree.
 */
export function isWeftError(error: unknown): error is WeftError {
  return error instanceof Error && /^[A-Z_]+$/.test(errorCode(error) ?? "");
}

/** True for the errors an AbortSignal produces, whatever threw them. */
export function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || errorCode(error) === "ABORTED");
}

/** The string `code` of anything thrown (Node's `ENOENT`, a WeftError's code), or undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null || !("code" in error)) return undefined;
  return typeof error.code === "string" ? error.code : undefined;
}

/** The message of anything thrown, for error text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
