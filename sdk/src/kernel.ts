import type { TSchema } from "typebox";
import type { ChatModel, ChatRequest } from "./chat-model.js";
import type { CompactionState, HookFacades, RegisteredTool, ToolVerdictFn } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { Disposer, Plugin, PluginApi } from "./plugin.js";
import type { ModelSpec } from "./provider.js";
import type { ExecuteOptions, ToolCallRequest, ToolResult } from "./tool.js";

/** A plugin applied to a kernel. `close()` takes back its tools, providers and taps. */
export interface PluginHandle {
  readonly name: string;
  readonly version: string;
  /** Where it was loaded from (a resolved file URL), when it came from a config. */
  readonly from?: string;
  close(): Promise<void>;
}

/** A scope: a PluginApi whose contributions are taken back by `dispose()`. Sessions use these. */
export interface Scope extends PluginApi {
  dispose(): Promise<void>;
}

/** The tool registry: sorted listing, safe under concurrent add/remove/list/execute. */
export interface ToolBox {
  get(name: string): RegisteredTool | undefined;
  /** Sorted by name, so the tool section of a prompt is byte-identical across requests. */
  list(): RegisteredTool[];
  /** Every registration, shadowed ones included, in the order they were added. */
  registrations(): RegisteredTool[];
  /** Removes one registration (a duplicate dropped at assembly). */
  drop(tool: RegisteredTool): void;
  /** Hides tools by name, whatever registered them, until the disposer runs. */
  disable(names: string[]): Disposer;
  /** Taps the interception gate with one function; `null` clears it. */
  setInterceptor(fn: ToolVerdictFn | null): void;
}

export interface Kernel {
  /** The host's own facades (tapped under the name `app`). */
  readonly hooks: HookFacades;
  readonly tools: ToolBox;
  readonly logger: Logger;
  readonly closed: boolean;
  /** Applies a plugin: validates and defaults its options, runs its setup, and its contributions. */
  use<O extends TSchema>(plugin: Plugin<O>, options?: unknown, from?: string): Promise<PluginHandle>;
  /** Runs the providers and tools hooks once; later `use` calls contribute at once. */
  ready(): Promise<void>;
  plugins(): PluginHandle[];
  /** Names of the plugins whose provider/tool contributions are still running (for deadline errors). */
  loading(): string[];
  /** A scope for contributions that come and go (a session's skills and tools). */
  scope(name: string): Scope;
  /** `provider/model` or a spec; an unknown provider lists the registered ones. */
  createModel(ref: string | ModelSpec): Promise<ChatModel>;
  providers(): string[];
  /** The one execute path every tool call goes through. Never throws for a tool's failure. */
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
  /** The system prompt: `base` followed by the sections the `prompt` hook contributes. */
  buildPrompt(base?: string): Promise<string>;
  /** Runs `beforeModelCall`. */
  prepareRequest(request: ChatRequest, model: ChatModel): Promise<ChatRequest>;
  /** Runs the `compact` stages. */
  compact(state: CompactionState): Promise<CompactionState>;
  emit: PluginApi["emit"];
  /** Runs every plugin's teardown in reverse order of setup; idempotent. */
  close(): Promise<void>;
}
