import type { TSchema } from "typebox";
import type { AnyConfigKey } from "./config-key.js";
import type { FeedbackEvent } from "./feedback.js";
import type { HookFacades, ToolRegistrar } from "./hooks.js";
import type { Logger } from "./logger.js";
import type { McpHost } from "./mcp-host.js";
import type { ExecuteOptions, ToolCallRequest, ToolResult, WaitFor } from "./tool.js";
import type { SchemaInput, SchemaOutput } from "./tool-input.js";
import type { TraceContext } from "./trace-context.js";

/** The plugin API version this sdk speaks; the kernel refuses plugins built for another. */
export const PLUGIN_API_VERSION = 1;

export type Disposer = () => void | Promise<void>;

export interface PluginMeta {
  /** The package name, e.g. `@weft/plugin-shell`. */
  name: string;
  version: string;
  /** The plugin API version it was built for: `PLUGIN_API_VERSION`. */
  api: number;
  description?: string;
  /**
   * The environment variables the plugin reads for options left unset, by option path
   * (`{ apiKey: "ANTHROPIC_API_KEY", "compatible.baseUrl": "OPENAI_BASE_URL" }`): an option given wins.
   * `weft plugins` shows which one a setting came from.
   */
  env?: Readonly<Record<string, string>>;
}

/**
 * Services plugins publish for each other, by name. Plugins add theirs with declaration merging:
 * `declare module "@weft/sdk" { interface WeftServices { jira: JiraClient } }`.
 */
export interface WeftServices {
  mcp: McpHost;
  traceContext: TraceContext;
}

/**
 * The plugin that publishes each standard service, for the SERVICE_MISSING error that says what to
 * enable. A third-party service adds its own line: `SERVICE_PROVIDERS.jira = "@acme/weft-plugin-jira"`.
 */
export const SERVICE_PROVIDERS: Partial<Record<string, string>> = { mcp: "@weft/plugin-mcp" };

export interface ProvideOptions {
  /** This service deliberately replaces one already provided under the name. */
  replaces?: boolean;
}

/** What a plugin's `setup` gets: taps on the kernel's hooks and a scoped view of its registries. */
export interface PluginApi {
  /** The plugin's (or scope's) name; every tap and tool is recorded under it. */
  readonly name: string;
  readonly hooks: HookFacades;
  /** Tools added here are removed when the plugin is closed. */
  readonly tools: ToolRegistrar;
  readonly logger: Logger;
  /** The folder relative paths in options are resolved from (the config file's folder, else the cwd). */
  readonly baseDir: string;
  /** Aborts when the host gives up loading (a deadline, its own signal) or the kernel closes: bounds connecting and fetching. */
  readonly signal: AbortSignal;
  /** The host's resolver for `pending` requests, when it answers them (an MCP plugin advertises elicitation then). */
  readonly waitFor?: WaitFor;
  /**
   * Publishes a service other plugins can `need`. A name already provided is refused (SERVICE_DUPLICATE,
   * naming both) unless `replaces: true` says this one takes over; the first comes back when it goes.
   */
  provide<K extends keyof WeftServices>(name: K, service: WeftServices[K], options?: ProvideOptions): void;
  /** A service another plugin published; throws SERVICE_MISSING naming what to enable. */
  need<K extends keyof WeftServices>(name: K): WeftServices[K];
  /** Whether a service has been published. */
  has(name: keyof WeftServices): boolean;
  emit(event: FeedbackEvent): void;
  /**
   * Whether an event `emit`ted now reaches an observer (a `feedback` tap of this scope, its session or
   * the kernel). An event nobody observes need not be built: a plugin that reports per request asks
   * first. It changes as observers come and go, so ask at each event, never once.
   */
  observed(): boolean;
  /** Runs a tool through the one execute path (the session's, for a session); never rejects. */
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
}

export interface Plugin<Options extends SchemaInput = TSchema> {
  meta: PluginMeta;
  /**
   * Schema of the options (typebox, or a Standard Schema such as zod 4 / valibot / arktype that exports
   * JSON Schema); they are validated and defaulted before `setup`, which gets the schema's output.
   */
  options?: Options;
  /** Names of plugins that must be applied before this one. */
  requires?: string[];
  /** The top-level config keys it consumes (`mcp:`, `skills:`), by name: see `ConfigKey`. */
  config?: Record<string, AnyConfigKey>;
  setup(api: PluginApi, options: SchemaOutput<Options>): void | Disposer | Promise<void | Disposer>;
}

/** A plugin of any options schema, as loaders and lists hold them (`setup` validates its own options). */
export type AnyPlugin = Plugin<TSchema>;

export function definePlugin<Options extends SchemaInput>(plugin: Plugin<Options>): Plugin<Options> {
  return plugin;
}

/** Something a session can be equipped with for its lifetime: a skill collection, a tool set. */
export interface Registrable {
  register(api: PluginApi): void | Promise<void>;
}
