import { isRecord, type Effort } from "@weft/sdk";
import type { ConfigDocument, ConfigPath } from "./config-document.js";
import { PROJECT_KEY_SCHEMAS, SHARED_KEY_SCHEMAS } from "./project-key-schemas.js";
import { checkWithSchema } from "./schema-check.js";
import { isLocalAgent, localAgents, type LocalAgentConfig } from "../agent/local-agents.js";

/** weft.config.yaml, validated. */
export interface ProjectConfig {
  /** `provider/model`. */
  model?: string;
  /** The agent's system prompt. */
  instructions?: string;
  effort?: Effort;
  plugins: PluginEntry[];
  /**
   * An mcp.json path (relative to the config file), or an inline `mcpServers` map. Checked here as well
   * as by the plugin that consumes it, because the trust check reads it before any plugin loads.
   */
  mcp?: string | Record<string, unknown>;
  /** Skills folders, relative to the config file (checked here for the trust check too). */
  skills?: string[];
  /**
   * Every key a plugin consumes (`mcp`, `skills`, `builtins`, `agents`, `skillsFilter`, a third-party
   * plugin's own), as written: the plugin that declares a key validates it when the project loads.
   */
  keys: Record<string, unknown>;
  /** Tool names to drop, whatever source produced them. */
  disableTools: string[];
  maxIterations?: number;
  /**
   * Local subagents (`{ name, description, local: { instructions, model?, tools?: { only | exclude }, maxIterations? } }`)
   * from `agents:`; the remote A2A entries there go to the plugin that declares the key.
   */
  agents?: LocalAgentConfig[];
  /** Bounds the load (MCP connections, agent cards), in ms. */
  deadline?: number;
  /** Where sessions are kept: `{ store: sqlite, url: ./sessions.db }` or `{ store: postgres, url: postgres://... }`. */
  sessions?: { store: "memory" | "sqlite" | "postgres"; url?: string };
}

/** One entry of `plugins:`: a name (short, package or path) and its options, with where it was written. */
export interface PluginEntry {
  name: string;
  options: unknown;
  path: ConfigPath;
}

/** How a checked value is read: a string list may be one string; `plugins:` entries become `PluginEntry`s. */
const READ: Record<string, (value: unknown, path: ConfigPath) => unknown> = {
  plugins: (value, path) => list(value).map(pluginEntry(path)),
  skills: list,
  disableTools: list,
  agents: (value) => list(value).map((agent) => (isLocalAgent(agent) ? withToolLists(agent) : agent)),
};

/** The options the project reads itself. */
export const PROJECT_OPTIONS: readonly string[] = Object.keys(PROJECT_KEY_SCHEMAS);

function list<T>(value: T | T[]): T[] {
  return Array.isArray(value) ? value : [value];
}

function pluginEntry(path: ConfigPath): (item: unknown, index: number) => PluginEntry {
  return (item, index) => {
    if (!isRecord(item)) return { name: String(item), options: undefined, path: [...path, index] };
    const name = Object.keys(item)[0] ?? "";
    return { name, options: item[name] ?? undefined, path: [...path, index, name] };
  };
}

/** `tools: { only: file_read }` is `{ only: [file_read] }`. */
function withToolLists(agent: LocalAgentConfig): LocalAgentConfig {
  const tools = agent.local.tools;
  if (tools?.only) tools.only = list(tools.only);
  if (tools?.exclude) tools.exclude = list(tools.exclude);
  return agent;
}

export function parseProjectConfig(doc: ConfigDocument): ProjectConfig {
  const raw = doc.value();
  if (!isRecord(raw)) throw doc.error([], "expected a map of options at the top level");
  const keys: Record<string, unknown> = {};
  const config: Record<string, unknown> = { plugins: [], disableTools: [], keys };
  for (const [key, value] of Object.entries(raw)) {
    const schema = PROJECT_KEY_SCHEMAS[key] ?? SHARED_KEY_SCHEMAS[key];
    if (!schema) {
      keys[key] = value;
      continue;
    }
    checkWithSchema(schema, value, [key], doc);
    const read = READ[key]?.(value, [key]) ?? value;
    if (key === "agents" && Array.isArray(read)) {
      // Local subagents are the agent's; the remote ones are the A2A plugin's key.
      config.agents = localAgents(read);
      const remote = read.filter((entry) => !isLocalAgent(entry));
      if (remote.length > 0) keys.agents = remote;
      continue;
    }
    config[key] = read;
    if (key in SHARED_KEY_SCHEMAS) keys[key] = read;
  }
  return config as unknown as ProjectConfig;
}
