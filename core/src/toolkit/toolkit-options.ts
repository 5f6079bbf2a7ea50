import type { AnyPlugin, AnyTool, FeedbackEvent, Logger, WaitFor, WeftServices } from "@weft/sdk";
import type { ConfigPath } from "../config/config-document.js";

/** A plugin to apply: a name (short, package or path) with options, or a plugin object. */
export interface PluginSpec {
  name?: string;
  plugin?: AnyPlugin;
  options?: unknown;
  /** Where a config file enabled it, so errors can point there. */
  path?: ConfigPath;
}

/** What the toolkit itself reads; every other key is a config key some plugin declares. */
export interface ToolkitCoreOptions {
  /** Relative paths and plugin names resolve from here; the working directory by default. */
  baseDir?: string;
  /** The application's own tools, always added; a source may step aside for them (the built-ins do). */
  extraTools?: AnyTool[];
  /** Final exposed names to drop, whatever source produced them. */
  disableTools?: string[];
  /** More plugins: applied after the tool sources, or merged with the source of the same plugin. */
  plugins?: PluginSpec[];
  /** The host's resolver for suspensions (questions, MCP elicitations, A2A input requests); `toolkit.execute` uses it too. */
  waitFor?: WaitFor;
  /**
   * Services the host publishes before any plugin loads, for handles that are not configuration (the
   * skills plugin's `skillProvider`). Typed for the services whose declarations are in scope.
   */
  services?: Partial<WeftServices> & Record<string, unknown>;
  /** Bounds the whole load (MCP connections, agent cards), in ms. */
  deadline?: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Sees every feedback event from the start of the load (MCP servers starting, connected, failed). */
  feedback?: (event: FeedbackEvent) => void;
}

/**
 * The toolkit's options plus config keys, named as in weft.config.yaml and consumed by the plugins that
 * declare them: `mcp` (or `mcpConfig`), `skills` (folders or data skills), `skillsFilter`, `builtins`
 * (on by default here), `agents`, or a listed third-party plugin's own key.
 */
export interface ToolkitOptions extends ToolkitCoreOptions {
  [configKey: string]: unknown;
}

/** The names `ToolkitCoreOptions` holds: the rest of an options object are config keys. */
export const CORE_OPTION_NAMES: ReadonlySet<string> = new Set<keyof ToolkitCoreOptions>([
  "baseDir",
  "extraTools",
  "disableTools",
  "plugins",
  "waitFor",
  "services",
  "deadline",
  "signal",
  "logger",
  "feedback",
]);
