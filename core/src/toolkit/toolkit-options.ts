import type { AnyPlugin, AnyTool, FeedbackEvent, Logger, WaitFor } from "@weft/sdk";
import type { ConfigPath } from "../config/config-document.js";

/** A skill given as data, with no filesystem. */
export interface DataSkill {
  name: string;
  description: string;
  content: string;
  files?: Record<string, string>;
}

/** A remote A2A agent (see @weft/plugin-a2a). */
export interface AgentSource {
  card: string;
  name?: string;
  headers?: Record<string, string>;
  timeout?: number;
  cardTimeout?: number;
  /** Origins the headers may go to (default: the card's). */
  origins?: string[];
  /** Verify the card's signature. */
  verify?: { jwksUrl?: string; keys?: Record<string, unknown>[]; required?: boolean };
}

/** A plugin to apply: a name (short, package or path) with options, or a plugin object. */
export interface PluginSpec {
  name?: string;
  plugin?: AnyPlugin;
  options?: unknown;
  /** Where a config file enabled it, so errors can point there. */
  path?: ConfigPath;
}

export interface ToolkitOptions {
  /** Relative paths and plugin names resolve from here; the working directory by default. */
  baseDir?: string;
  /** An mcp.json path, its raw JSON text, or the parsed object. Needs @weft/plugin-mcp. */
  mcpConfig?: string | Record<string, unknown>;
  /** Skills roots searched for SKILL.md folders. Needs @weft/plugin-skills (as do the other skill options). */
  skillsDir?: string | string[];
  skills?: DataSkill[];
  /** Called once, lazily, when the skills are first needed. */
  skillProvider?: () => DataSkill[] | Promise<DataSkill[]>;
  skillsFilter?: string[] | Record<string, boolean>;
  /** 0 = the default 10 files listed by skill_load, n > 0 caps, -1 omits the list. */
  skillSampleLimit?: number;
  disableSkills?: string[];
  /** The built-in tools: on by default; `false` drops the set; `{ tools: { bash: false } }` drops single tools. */
  builtins?: boolean | { tools?: Record<string, boolean> };
  /** Remote A2A agents, each skill a tool. Needs @weft/plugin-a2a. */
  agents?: AgentSource[];
  /** The application's own tools, always added; they shadow a built-in of the same name. */
  extraTools?: AnyTool[];
  /** Final exposed names to drop, whatever source produced them. */
  disableTools?: string[];
  /** More plugins, applied after the tool sources. */
  plugins?: PluginSpec[];
  /** The host's resolver for suspensions (questions, MCP elicitations, A2A input requests). */
  waitFor?: WaitFor;
  /** Bounds the whole load (MCP connections, agent cards), in ms. */
  deadline?: number;
  signal?: AbortSignal;
  logger?: Logger;
  /** Sees every feedback event from the start of the load (MCP servers starting, connected, failed). */
  feedback?: (event: FeedbackEvent) => void;
}
