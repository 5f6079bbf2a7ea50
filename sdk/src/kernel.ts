import type { SchemaInput } from "./tool-input.js";
import type { ChatModel, ChatRequest } from "./chat-model.js";
import type { CompactionState, HookFacades, StepInfo, StepPlan, ToolDescriptor, ToolVerdictFn } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { Disposer, Plugin, PluginApi } from "./plugin.js";
import type { ModelSpec } from "./provider.js";
import type { AnyTool, ExecuteOptions, ToolCallRequest, ToolResult } from "./tool.js";

/** A plugin applied to a kernel. `close()` takes back its tools, providers and taps. */
export interface PluginHandle {
  readonly name: string;
  readonly version: string;
  /** Where it was loaded from (a resolved file URL), when it came from a config. */
  readonly from?: string;
  close(): Promise<void>;
}

/** A scope: a PluginApi whose contributions are taken back by `dispose()`; what it adds is kernel-wide. */
export interface Scope extends PluginApi {
  dispose(): Promise<void>;
}

/** Which of the kernel's tools a session sees; `only` first, then `exclude`. Its own tools always show. */
export interface ToolSubset {
  only?: string[];
  exclude?: string[];
}

export interface KernelSessionOptions {
  /** Generated when absent. */
  id?: string;
  /** The agent running the session, passed to every hook and tool as context. */
  agent?: string;
  /** A subset of the kernel's tools. */
  tools?: ToolSubset;
}

/** A session's tools: the kernel's (or the subset it was given) overlaid with its own. */
export interface SessionTools {
  /** Adds a tool only this session sees; it shadows a kernel tool of the same name. */
  add(tool: AnyTool): Disposer;
  /** Hides tools by name from this session until the disposer runs. */
  hide(names: string[]): Disposer;
  get(name: string): ToolDescriptor | undefined;
  /** Sorted by name. */
  list(): ToolDescriptor[];
}

/**
 * A child scope of the kernel for one conversation. It owns what is added through it (tools, taps,
 * prompt sections, services such as the todo list, feedback subscribers): none of it is visible to the
 * kernel or another session, and `dispose()` takes all of it back at once. Its hooks run the kernel's
 * taps, then its own (by stage); its execute path sees its tools.
 */
export interface KernelSession extends PluginApi {
  readonly id: string;
  readonly agent?: string;
  /** The turn count hooks see as `context.turn`; the agent advances it. */
  turn: number;
  readonly tools: SessionTools;
  readonly closed: boolean;
  /** The session's services first, then the kernel's. */
  need: PluginApi["need"];
  buildPrompt(base?: string): Promise<string>;
  prepareRequest(request: ChatRequest, model: ChatModel): Promise<ChatRequest>;
  compact(state: CompactionState): Promise<CompactionState>;
  /** Runs `prepareStep` (the kernel's taps, then the session's). */
  prepareStep(plan: StepPlan, step: StepInfo): Promise<StepPlan>;
  /** Runs `stopWhen`: the first reason a tap gives, or undefined to go on. */
  stopWhen(step: StepInfo): Promise<string | undefined>;
  /**
   * The state its services keep with it (every `SessionStateService` the session sees, by service
   * name), plus what was restored under names no service claims now: the stored session's `services`.
   */
  saveState(): Record<string, unknown>;
  /**
   * Hands a stored session's `services` to the services that keep state; a service with no entry
   * forgets the session's state (`restoreState({})` empties them all, as a reset does).
   */
  restoreState(services: Record<string, unknown>): void;
  /** Waits for contributions made through its `tools` / `providers` hooks (they run at once, asynchronously). */
  settle(): Promise<void>;
  /** Reaches the session's feedback subscribers, then the kernel's. */
  emit: PluginApi["emit"];
  dispose(): Promise<void>;
}

/** The tool registry: sorted listing of descriptors, safe under concurrent add/remove/list/execute. */
export interface ToolBox {
  get(name: string): ToolDescriptor | undefined;
  /** Sorted by name, so the tool section of a prompt is byte-identical across requests. */
  list(): ToolDescriptor[];
  /** Every registration, shadowed ones included, in the order they were added. */
  registrations(): ToolDescriptor[];
  /** Removes one registration (a duplicate dropped at assembly). */
  drop(tool: ToolDescriptor): void;
  /** Hides tools by name, whatever registered them, until the disposer runs. */
  disable(names: string[]): Disposer;
  /** Taps the gate (`beforeToolCall`) at the POLICY stage, first in it, with one function; `null` clears it. */
  setInterceptor(fn: ToolVerdictFn | null): void;
  /** Calls `listener` after the listed tools may have changed; changes in one synchronous run are announced once. */
  onChange(listener: () => void): Disposer;
}

export interface Kernel {
  /** The host's own facades (tapped under the name `app`). */
  readonly hooks: HookFacades;
  readonly tools: ToolBox;
  readonly logger: Logger;
  readonly closed: boolean;
  /** Applies a plugin: validates and defaults its options, runs its setup, and its contributions. */
  use<O extends SchemaInput>(plugin: Plugin<O>, options?: unknown, from?: string): Promise<PluginHandle>;
  /** Runs the providers and tools hooks once; later `use` calls contribute at once. */
  ready(): Promise<void>;
  plugins(): PluginHandle[];
  /** Names of the plugins whose provider/tool contributions are still running (for deadline errors). */
  loading(): string[];
  /** A scope for kernel-wide contributions that come and go (a plugin added at run time). */
  scope(name: string): Scope;
  /** A child scope for one conversation: see `KernelSession`. The kernel is made ready first. */
  session(options?: KernelSessionOptions): Promise<KernelSession>;
  /** `provider/model` or a spec; an unknown provider lists the registered ones. */
  createModel(ref: string | ModelSpec): Promise<ChatModel>;
  providers(): string[];
  /** The one execute path every tool call goes through. Never rejects: every failure is an error result. */
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
