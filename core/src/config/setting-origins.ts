import { PROVIDER_PLUGINS, resolveObjectSchema, type AnyPlugin } from "@weft/sdk";
import { ConfigDocument, type ConfigPath } from "./config-document.js";
import type { Project } from "./load-project.js";
import { pluginCandidates, resolvePluginUrl } from "./plugin-resolver.js";

/** One setting of a loaded plugin and where its value came from. */
export interface SettingOrigin {
  plugin: string;
  /** The option's path in the plugin's options: `root`, `compatible.baseUrl`. */
  setting: string;
  /** What `weft plugins` may print: secrets (keys, tokens, headers) show as "(set)"; absent when unset. */
  value?: unknown;
  /** `config`: weft.config.yaml at `line`; `env`: the `variable`; `default`: the schema's; `unset`: none (the plugin may still have its own fallback). */
  from: "config" | "env" | "default" | "unset";
  file?: string;
  line?: number;
  variable?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const SECRET = /key|token|secret|password|authorization|headers/i;

/**
 * Where each setting of the project's plugins came from. The order the plugins read them in decides:
 * an option in weft.config.yaml (a `plugins:` entry's, which wins over a key such as `builtins:`), then
 * the environment variable the plugin declares for it (`meta.env`), then the schema's default.
 */
export async function settingOrigins(project: Project): Promise<SettingOrigin[]> {
  const doc = await ConfigDocument.read(project.file);
  const origins: SettingOrigin[] = [];
  for (const handle of project.kernel.plugins()) {
    if (!handle.from) continue;
    const plugin = ((await import(handle.from)) as { default: AnyPlugin }).default;
    const given = givenOptions(project, doc, plugin, handle.from);
    const defaults = plugin.options ? topLevelDefaults(resolveObjectSchema(`plugin ${handle.name}`, plugin.options).jsonSchema) : {};
    const settings = new Set([...given.keys(), ...Object.keys(plugin.meta.env ?? {}), ...Object.keys(defaults)]);
    for (const setting of settings) {
      const shown = (value: unknown) => (SECRET.test(setting) ? "(set)" : value);
      const written = given.get(setting);
      const variable = plugin.meta.env?.[setting];
      const fromEnv = variable ? process.env[variable] : undefined;
      const base = { plugin: handle.name, setting };
      if (written) origins.push({ ...base, value: shown(written.value), from: "config", file: project.file, line: written.line });
      else if (variable && fromEnv) origins.push({ ...base, value: shown(fromEnv), from: "env", variable });
      else if (setting in defaults) origins.push({ ...base, value: defaults[setting], from: "default" });
      else origins.push({ ...base, from: "unset", ...(variable ? { variable } : {}) });
    }
    const model = project.config.model;
    if (model && PROVIDER_PLUGINS[model.slice(0, model.indexOf("/"))] === handle.name) {
      origins.push({ plugin: handle.name, setting: "model", value: model, from: "config", file: project.file, line: doc.lineOf(["model"]) });
    }
  }
  return origins;
}

/** The plugin's options written in the config, each leaf with its line: from its `plugins:` entry, over those its keys stand for. */
function givenOptions(project: Project, doc: ConfigDocument, plugin: AnyPlugin, from: string): Map<string, { value: unknown; line?: number }> {
  const given = new Map<string, { value: unknown; line?: number }>();
  for (const [key, declared] of Object.entries(plugin.config ?? {})) {
    if (!(key in project.config.keys)) continue;
    const options = declared.toOptions(project.config.keys[key] as never, { baseDir: project.dir, hostTools: [] });
    for (const [setting, value] of leaves(options ?? {})) given.set(setting, { value, line: doc.lineOf([key]) });
  }
  // By package name (a first-party plugin may resolve from beside core), else by the file a path names.
  const entry = project.config.plugins.find((candidate) => pluginCandidates(candidate.name).includes(plugin.meta.name) || resolvePluginUrl(candidate.name, project.dir) === from);
  if (entry && isRecord(entry.options)) {
    for (const [setting, value] of leaves(entry.options)) given.set(setting, { value, line: doc.lineOf([...entry.path, ...setting.split(".")]) ?? doc.lineOf(entry.path) });
  }
  return given;
}

/** `{ compatible: { baseUrl: x } }` → `compatible.baseUrl = x`; lists and empty maps are values of their own. */
function leaves(value: Record<string, unknown>, prefix: ConfigPath = []): [string, unknown][] {
  return Object.entries(value).flatMap(([key, nested]) =>
    isRecord(nested) && Object.keys(nested).length > 0 ? leaves(nested, [...prefix, key]) : [[[...prefix, key].join("."), nested] as [string, unknown]],
  );
}

function topLevelDefaults(schema: Record<string, unknown>): Record<string, unknown> {
  if (!isRecord(schema.properties)) return {};
  return Object.fromEntries(Object.entries(schema.properties).flatMap(([key, property]) => (isRecord(property) && "default" in property ? [[key, property.default]] : [])));
}

