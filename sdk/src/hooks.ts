import type { ChatModel, ChatRequest } from "./chat-model.js";
import type { FeedbackEvent } from "./feedback.js";
import type { Message } from "./message.js";
import type { Provider } from "./provider.js";
import type { Tool, ToolResult } from "./tool.js";
import type { Disposer } from "./plugin.js";

/**
 * Tap order. Lower stages run first; taps of one stage run in registration order. Use these names
 * rather than bare numbers so independent plugins agree (a policy gate before an audit log).
 */
export const Stage = {
  /** Gates that must see a call first: allowlists, approvals. */
  POLICY: -100,
  /** Argument or request rewriting. */
  REWRITE: -50,
  DEFAULT: 0,
  /** Output shaping: truncation, redaction. */
  TRANSFORM: 50,
  /** Observers that must see the final value: audit logs. */
  AUDIT: 100,
} as const;

/** Stages of the `compact` hook: cheap, model-free pruning before summarising. */
export const CompactStage = {
  PRUNE: 100,
  SUMMARISE: 200,
} as const;

export interface TapOptions {
  stage?: number;
}

/** A hook as plugins see it: they can tap, never call. Each tap is recorded under the plugin's name. */
export interface HookFacade<Args extends unknown[], Result> {
  tap(fn: (...args: Args) => Result | Promise<Result>): void;
  tap(options: TapOptions, fn: (...args: Args) => Result | Promise<Result>): void;
}

export interface ProviderRegistrar {
  add(provider: Provider): Disposer;
}

/** The tool registry as a plugin sees it: what it adds is removed when the plugin is closed. */
export interface ToolRegistrar {
  /** Adds a tool; one already registered under the name is shadowed until this one is removed. */
  add(tool: Tool<any>): Disposer;
  get(name: string): Tool | undefined;
  list(): RegisteredTool[];
}

/** A tool in the registry, with its source filled in. */
export type RegisteredTool = Tool & { source: NonNullable<Tool["source"]> };

/** A tool call on its way through the execute path. */
export interface ToolCallInfo {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  tool: RegisteredTool;
}

/**
 * The interception gate's verdicts. Return undefined to let the next gate decide; the first verdict
 * wins. `allow` ends the gate early; `deny` answers the model with the reason; `rewrite` replaces
 * the arguments (they are validated again); `answer` returns a result without running the tool.
 */
export type ToolVerdict =
  | { action: "allow" }
  | { action: "deny"; reason: string }
  | { action: "rewrite"; arguments: Record<string, unknown> }
  | { action: "answer"; result: ToolResult };

/** The transcript as compaction stages pass it along. */
export interface CompactionState {
  messages: Message[];
  /** Current estimate of the prompt size in tokens; a stage that shrinks the transcript updates it. */
  estimatedTokens: number;
  /** Compaction aims to bring `estimatedTokens` below this. */
  thresholdTokens: number;
  contextWindow: number;
  model: ChatModel;
  signal: AbortSignal;
}

export interface ModelCallInfo {
  model: ChatModel;
}

export interface HookFacades {
  providers: HookFacade<[registrar: ProviderRegistrar], void>;
  tools: HookFacade<[registrar: ToolRegistrar], void>;
  prompt: HookFacade<[sections: string[]], string[]>;
  beforeModelCall: HookFacade<[request: ChatRequest, info: ModelCallInfo], ChatRequest>;
  beforeToolCall: HookFacade<[call: ToolCallInfo], ToolVerdict | undefined>;
  afterToolCall: HookFacade<[result: ToolResult, call: ToolCallInfo], ToolResult>;
  compact: HookFacade<[state: CompactionState], CompactionState>;
  /** Observers; one that throws is logged and never breaks the run. */
  feedback: HookFacade<[event: FeedbackEvent], void>;
  /** Teardown; runs in reverse order of setup. */
  close: HookFacade<[], void>;
}

/** One interception function: what `toolBox.setInterceptor` taps on the gate. */
export type ToolVerdictFn = (call: ToolCallInfo) => ToolVerdict | undefined | Promise<ToolVerdict | undefined>;
