import type { Static, TSchema } from "typebox";

/** What a config key's mapping knows of the place it is read in. */
export interface ConfigKeyContext {
  /** The folder relative paths resolve from: the config file's, or the toolkit's `baseDir`. */
  baseDir: string;
  /** The names of the host's own tools (`createToolkit`'s `extraTools`): a source may step aside for them. */
  hostTools: readonly string[];
}

/**
 * A top-level key of weft.config.yaml (and of `createToolkit`'s options) that a plugin consumes:
 * `mcp:` for the MCP plugin, `skills:` for the skills plugin. The loader validates the key's value
 * against `schema` (errors point at the key's line), maps it with `toOptions`, and applies the plugin
 * once with the options of all its keys merged (and under a `plugins:` entry's options, when the
 * plugin is listed as well).
 */
export interface ConfigKey<Schema extends TSchema = TSchema> {
  schema: Schema;
  /** The plugin options the value stands for; `undefined` leaves the plugin out (`builtins: false`). */
  toOptions(value: Static<Schema>, context: ConfigKeyContext): Record<string, unknown> | undefined;
  /**
   * Where the plugin's tools rank when two sources offer the same name, lowest first (first-party:
   * MCP 10, skills 20, built-ins 30, agents 40). Plugins enabled only by `plugins:` rank after every
   * source, in list order, and the host's own tools last. Ranking, not setup order, decides.
   */
  rank: number;
  /** Other keys the value holds (a parsed mcp.json's `builtins` and `agents`); a key given itself wins. */
  carries?(value: Static<Schema>): Record<string, unknown>;
}

/** A key of any schema, as plugins list them (each key's mapping checks its own value). */
export type AnyConfigKey = ConfigKey<TSchema>;

export function defineConfigKey<Schema extends TSchema>(key: ConfigKey<Schema>): AnyConfigKey {
  return key as unknown as AnyConfigKey;
}

/**
 * The first-party plugins that consume each key, loaded when a key is given and no plugin the host
 * lists declares it (a third-party key needs its plugin in `plugins:`). `toolkitDefault` is the value
 * `createToolkit` assumes when the key is absent; a project file assumes none.
 */
export const CONFIG_KEY_PLUGINS: Partial<Record<string, { plugins: readonly string[]; toolkitDefault?: unknown }>> = {
  mcp: { plugins: ["@weft/plugin-mcp"] },
  mcpConfig: { plugins: ["@weft/plugin-mcp"] },
  skills: { plugins: ["@weft/plugin-skills"] },
  skillsDir: { plugins: ["@weft/plugin-skills"] },
  skillsFilter: { plugins: ["@weft/plugin-skills"] },
  skillSampleLimit: { plugins: ["@weft/plugin-skills"] },
  disableSkills: { plugins: ["@weft/plugin-skills"] },
  builtins: { plugins: ["@weft/plugin-shell", "@weft/plugin-files", "@weft/plugin-web", "@weft/plugin-coding"], toolkitDefault: true },
  agents: { plugins: ["@weft/plugin-a2a"] },
};

/** Which first-party plugin registers each provider id, for loading it when only `model:` names it. */
export const PROVIDER_PLUGINS: Partial<Record<string, string>> = {
  anthropic: "@weft/plugin-anthropic",
  openrouter: "@weft/plugin-openrouter",
  "openai-compatible": "@weft/plugin-openrouter",
  ollama: "@weft/plugin-ollama",
};
