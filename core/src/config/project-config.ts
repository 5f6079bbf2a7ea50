import { EFFORTS, isEffort, type Effort } from "@weft/sdk";
import type { ConfigDocument, ConfigPath } from "./config-document.js";
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

type Check = (value: unknown, path: ConfigPath, doc: ConfigDocument) => unknown;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const string: Check = (value, path, doc) => {
  if (typeof value !== "string" || value.length === 0) throw doc.error(path, "expected a non-empty string");
  return value;
};
const stringList: Check = (value, path, doc) => {
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list)) throw doc.error(path, "expected a list of strings");
  return list.map((item, index) => string(item, [...path, index], doc));
};

/**
 * The top-level options the project reads itself: how to check each. Every other key goes to the
 * plugin that declares it (an unknown one is an error naming the key's line when the project loads).
 */
const OPTIONS: Record<string, Check> = {
  model: (value, path, doc) => {
    const ref = string(value, path, doc) as string;
    if (!/^[^/\s]+\/\S+$/.test(ref)) throw doc.error(path, `expected provider/model (e.g. anthropic/claude-sonnet-4-5), got "${ref}"`);
    return ref;
  },
  instructions: string,
  effort: (value, path, doc) => {
    if (!isEffort(value)) throw doc.error(path, `expected one of ${EFFORTS.join(", ")}, got ${JSON.stringify(value)}`);
    return value;
  },
  plugins: (value, path, doc) => {
    if (!Array.isArray(value)) throw doc.error(path, "expected a list of plugin names or one-key maps of name to options");
    return value.map((item, index): PluginEntry => {
      const at = [...path, index];
      if (typeof item === "string" && item.length > 0) return { name: item, options: undefined, path: at };
      const [name, ...others] = isRecord(item) ? Object.keys(item) : [];
      if (isRecord(item) && name !== undefined && others.length === 0) {
        const options = item[name];
        if (options !== null && !isRecord(options)) throw doc.error([...at, name], "plugin options must be a map");
        return { name, options: options ?? undefined, path: [...at, name] };
      }
      throw doc.error(at, "expected a plugin name or a one-key map of name to options (e.g. - files: { root: ./workspace })");
    });
  },
  mcp: (value, path, doc) => {
    if (typeof value === "string" || isRecord(value)) return value;
    throw doc.error(path, "expected a path to an mcp.json file or an inline map of servers");
  },
  skills: stringList,
  disableTools: stringList,
  maxIterations: wholeNumber("0 for no limit"),
  agents: (value, path, doc) => {
    if (!Array.isArray(value)) throw doc.error(path, "expected a list of agents ({ card: <agent card URL> })");
    return value.map((agent, index) => {
      if (!isRecord(agent)) throw doc.error([...path, index], "expected { card: <agent card URL>, name?, headers?, timeout? } or { name, description, local: { instructions } }");
      if (agent.local !== undefined) return localAgent(agent, [...path, index], doc);
      string(agent.card, [...path, index, "card"], doc);
      return agent;
    });
  },
  deadline: wholeNumber("milliseconds"),
  sessions: (value, path, doc) => {
    const shape = "expected { store: memory | sqlite | postgres, url: <database file or postgres:// URL> }";
    if (!isRecord(value) || !Object.keys(value).every((key) => key === "store" || key === "url")) throw doc.error(path, shape);
    if (!["memory", "sqlite", "postgres"].includes(value.store as string)) throw doc.error([...path, "store"], shape);
    if (value.url !== undefined) string(value.url, [...path, "url"], doc);
    if (value.store !== "memory" && value.url === undefined) throw doc.error(path, `the ${String(value.store)} store needs a url (${shape})`);
    return value;
  },
};

/** Keys a plugin consumes that the project checks too (for the trust check; `agents` for its local entries). */
const PLUGIN_KEYS = new Set(["mcp", "skills", "agents"]);

/** The options the project reads itself. */
export const PROJECT_OPTIONS: readonly string[] = Object.keys(OPTIONS).filter((key) => !PLUGIN_KEYS.has(key));

/** A subagent run here: `{ name, description, local: { instructions, model?, tools?: { only?, exclude? }, maxIterations? } }`. */
function localAgent(agent: Record<string, unknown>, path: ConfigPath, doc: ConfigDocument): Record<string, unknown> {
  const known = (value: Record<string, unknown>, keys: string[], at: ConfigPath) => {
    for (const key of Object.keys(value)) if (!keys.includes(key)) throw doc.error([...at, key], `is not an option of a local agent (known: ${keys.join(", ")})`, { atKey: true });
  };
  known(agent, ["name", "description", "local"], path);
  string(agent.name, [...path, "name"], doc);
  string(agent.description, [...path, "description"], doc);
  const local = agent.local;
  if (!isRecord(local)) throw doc.error([...path, "local"], "expected { instructions, model?, tools?: { only | exclude }, maxIterations? }");
  known(local, ["instructions", "model", "tools", "maxIterations"], [...path, "local"]);
  string(local.instructions, [...path, "local", "instructions"], doc);
  if (local.model !== undefined) OPTIONS.model?.(local.model, [...path, "local", "model"], doc);
  if (local.maxIterations !== undefined) wholeNumber("0 for no limit")(local.maxIterations, [...path, "local", "maxIterations"], doc);
  if (local.tools !== undefined) {
    if (!isRecord(local.tools)) throw doc.error([...path, "local", "tools"], "expected { only: [<tool>, ...] } or { exclude: [<tool>, ...] }");
    known(local.tools, ["only", "exclude"], [...path, "local", "tools"]);
    const tools = local.tools;
    for (const key of ["only", "exclude"]) if (tools[key] !== undefined) tools[key] = stringList(tools[key], [...path, "local", "tools", key], doc);
  }
  return agent;
}

function wholeNumber(meaning: string): Check {
  return (value, path, doc) => {
    if (!Number.isInteger(value) || (value as number) < 0) throw doc.error(path, `expected a whole number (${meaning})`);
    return value;
  };
}


export function parseProjectConfig(doc: ConfigDocument): ProjectConfig {
  const raw = doc.value();
  if (!isRecord(raw)) throw doc.error([], "expected a map of options at the top level");
  const keys: Record<string, unknown> = {};
  const config: Record<string, unknown> = { plugins: [], disableTools: [], keys };
  for (const [key, value] of Object.entries(raw)) {
    const check: Check | undefined = OPTIONS[key];
    if (!check) {
      keys[key] = value;
      continue;
    }
    config[key] = check(value, [key], doc);
    if (PLUGIN_KEYS.has(key)) keys[key] = config[key];
    if (key === "agents") {
      // Local subagents are the agent's; the remote ones are the A2A plugin's key.
      const remote = (config[key] as unknown[]).filter((entry) => !isLocalAgent(entry));
      config[key] = localAgents(config[key] as unknown[]);
      if (remote.length > 0) keys[key] = remote;
      else delete keys[key];
    }
  }
  return config as unknown as ProjectConfig;
}
