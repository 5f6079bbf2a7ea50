import type { ChatModel, ChatRequest, Effort } from "./chat-model.js";
import type { FeedbackEvent, TurnMetadata } from "./feedback.js";
import type { AssistantMessage, Message, Stats, ToolMessage } from "./message.js";
import type { Provider } from "./provider.js";
import type { AnyTool, Tool, ToolResult, ToolSource } from "./tool.js";
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

/** Stages of the `compact` hook: cheap, model-free pruning, then summarising, then dropping as a last resort. */
export const CompactStage = {
  PRUNE: 100,
  SUMMARISE: 200,
  DROP: 300,
} as const;

export interface TapOptions {
  stage?: number;
}

/** A feedback observer's options. */
export interface ObserverTapOptions extends TapOptions {
  /**
   * The observer observes only while this returns true (a stream while someone reads it): otherwise
   * no event reaches it and `observed()` does not count it, so nobody builds events for it.
   */
  active?: () => boolean;
}

/**
 * Where a hook runs: which session, turn and agent, and which plugin or scope made the call. Every tap
 * gets it as its last argument, so a plugin never has to guess where it is from a signal or a transcript.
 */
export interface HookContext {
  /** The session the call belongs to; absent for a call made on the kernel itself. */
  readonly sessionId?: string;
  /** The agent running the session, when it named itself. */
  readonly agent?: string;
  /** The session's turn count (1 for the first turn), 0 before any turn. */
  readonly turn: number;
  /** The plugin or scope whose call reached the hook: `app`, a plugin's name, `session:<id>`. */
  readonly caller: string;
}

/** A tap: the hook's arguments, then the context the hook runs in. */
export type TapFn<Args extends unknown[], Result> = (...args: [...Args, context: HookContext]) => Result | Promise<Result>;

/** A hook as plugins see it: they can tap, never call. Each tap is recorded under the plugin's name. */
interface HookFacadeOf<Kind extends HookKind, Args extends unknown[], Result, Options extends TapOptions = TapOptions> {
  /** What a tap's return value does: see `HookKind`. */
  readonly kind: Kind;
  tap(fn: TapFn<Args, Result>): void;
  tap(options: Options, fn: TapFn<Args, Result>): void;
}

/**
 * - `series`: every tap runs in turn; return values are ignored.
 * - `waterfall`: each tap gets the previous tap's value and returns the next one (undefined keeps it).
 * - `bail`: taps run in turn until one returns something other than undefined: that verdict wins.
 * - `sync`: observers, called synchronously; one that throws is logged and never breaks the run.
 */
export type HookKind = "series" | "waterfall" | "bail" | "sync";

export type SeriesHookFacade<Args extends unknown[]> = HookFacadeOf<"series", Args, void>;
export type WaterfallHookFacade<Args extends [unknown, ...unknown[]]> = HookFacadeOf<"waterfall", Args, Args[0]>;
export type BailHookFacade<Args extends unknown[], Verdict> = HookFacadeOf<"bail", Args, Verdict | undefined>;
export type SyncHookFacade<Args extends unknown[]> = HookFacadeOf<"sync", Args, void, ObserverTapOptions>;
/** Any hook facade. */
export type HookFacade<Args extends unknown[], Result> = HookFacadeOf<HookKind, Args, Result>;

export interface ProviderRegistrar {
  add(provider: Provider): Disposer;
}

/**
 * What the registry tells about a tool: everything but a way to run it. The only way to run a tool is
 * the execute path (`kernel.execute`, `session.execute`, `api.execute`), so a gate that denies a call
 * makes it impossible to run.
 */
export type ToolDescriptor = Readonly<Omit<Tool, "execute" | "source">> & { readonly source: ToolSource };

/** The tool registry as a plugin sees it: what it adds is removed when the plugin is closed. */
export interface ToolRegistrar {
  /** Adds a tool; one already registered under the name is shadowed until this one is removed. */
  add(tool: AnyTool): Disposer;
  get(name: string): ToolDescriptor | undefined;
  list(): ToolDescriptor[];
}

/** A tool call on its way through the execute path. */
export interface ToolCallInfo {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  tool: ToolDescriptor;
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
  /** The size that triggered the compaction; the last-resort stage (dropping turns) works until the estimate is below it. */
  thresholdTokens: number;
  /** Where pruning and summarising aim, well below the threshold, so the next compaction is several calls away. */
  targetTokens: number;
  contextWindow: number;
  /**
   * Messages no stage may change or remove (compared by identity): the current turn's user message,
   * the latest assistant message and its tool results. The system messages lead `messages` and stay too.
   */
  protectedMessages: readonly Message[];
  /** What each stage removed, in stage order; a stage that changed the transcript adds its entry. */
  stages: CompactionStageReport[];
  model: ChatModel;
  signal: AbortSignal;
}

/** One stage's work in a compaction, as `compaction.finished` reports it. */
export interface CompactionStageReport {
  /** `prune`, `summarise`, `drop`, or the name an application's stage gives itself. */
  stage: string;
  /** Estimated tokens the stage took out of the prompt (net of what it added, such as a summary). */
  removedTokens: number;
  /** Messages it changed (pruned) or replaced (summarised, dropped). */
  messages: number;
  /** The summary call's own tokens and cost. */
  summaryUsage?: Stats;
}

export interface ModelCallInfo {
  model: ChatModel;
}

/** Where a turn stands before a model call (`prepareStep`) or after a step (`stopWhen`). */
export interface StepInfo {
  /** Model calls of the turn so far (0 before the first). */
  step: number;
  /** The turn's latest reply and the results of its tool calls; absent before the first call. */
  lastReply?: AssistantMessage;
  toolResults: ToolMessage[];
  /** What the turn has cost so far. */
  metadata: TurnMetadata;
}

/**
 * What the next model call uses, for that call alone: `prepareStep` taps return a changed plan. The
 * transcript keeps its own messages; `messages` replaces what this one request carries.
 */
export interface StepPlan {
  /** A model id the ChatModel can switch to (`changeModel`), for this call. */
  model?: string;
  effort?: Effort;
  /** Names of the tools offered in this call; absent offers all the session's tools. */
  tools?: string[];
  /** The messages of this request (system message first); the transcript itself is unchanged. */
  messages: Message[];
}

export interface HookFacades {
  providers: SeriesHookFacade<[registrar: ProviderRegistrar]>;
  tools: SeriesHookFacade<[registrar: ToolRegistrar]>;
  prompt: WaterfallHookFacade<[sections: string[]]>;
  beforeModelCall: WaterfallHookFacade<[request: ChatRequest, info: ModelCallInfo]>;
  /** The one gate; `kernel.tools.setInterceptor` taps it at the POLICY stage. */
  beforeToolCall: BailHookFacade<[call: ToolCallInfo], ToolVerdict>;
  afterToolCall: WaterfallHookFacade<[result: ToolResult, call: ToolCallInfo]>;
  compact: WaterfallHookFacade<[state: CompactionState]>;
  /** Before each model call of a turn: change the model, effort, tools or messages of that call. */
  prepareStep: WaterfallHookFacade<[plan: StepPlan, step: StepInfo]>;
  /** After each step with tool calls: a tap that returns a reason ends the turn (status `incomplete`, reason `stop-condition`). */
  stopWhen: BailHookFacade<[step: StepInfo], string>;
  /** Observers; one that throws is logged and never breaks the run. */
  feedback: SyncHookFacade<[event: FeedbackEvent]>;
  /** Teardown; runs in reverse order of setup. */
  close: SeriesHookFacade<[]>;
}

/** One interception function: what `tools.setInterceptor` taps on the gate at the POLICY stage. */
export type ToolVerdictFn = (call: ToolCallInfo, context: HookContext) => ToolVerdict | undefined | Promise<ToolVerdict | undefined>;
