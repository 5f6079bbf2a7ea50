import { CONFIG_KEY_PLUGINS, WeftError, type AnyConfigKey, type AnyPlugin, type ConfigKeyContext } from "@weft/sdk";
import { PluginOptionsError, optionProblems } from "../plugin-options-error.js";
import type { PluginSpec } from "./toolkit-options.js";

/** A plugin to apply, imported, with its options and where its tools rank among the sources. */
export interface PlannedPlugin {
  plugin: AnyPlugin;
  from?: string;
  options: unknown;
  /** The `plugins:` entry (or the config key) that enabled it, for errors. */
  spec: PluginSpec;
  rank: number;
}

export interface PlanEnvironment {
  /** Imports a plugin by name (short, package or path). */
  load(name: string): Promise<{ plugin: AnyPlugin; from?: string }>;
  /** Plugins core itself ships that consume keys (its built-ins), after the first-party packages. */
  own: AnyPlugin[];
  context: ConfigKeyContext;
  /** Rewrites an error of one spec, e.g. to point at the config line. */
  locate(spec: PluginSpec, error: unknown): Error;
  /** The options the caller reads itself, for the list an unknown key's error gives. */
  ownOptions: readonly string[];
}

/** A key no plugin declares: the loader points at the key itself. */
export class UnknownKeyError extends WeftError {
  constructor(message: string) {
    super("CONFIG_INVALID", message);
  }
}

/** Plugins listed only in `plugins:` rank after every source, in list order. */
const LISTED_RANK = 1000;

interface Consumer {
  plugin: AnyPlugin;
  from?: string;
  /** Options of every key that turned it on, merged; undefined while none has. */
  options?: Record<string, unknown>;
  rank: number;
  spec: PluginSpec;
}

/**
 * Decides which plugins to apply and with what: every config key goes to the plugins that declare it
 * (a listed plugin first, else the first-party ones named for the key), validated by the key's schema
 * and mapped by its `toOptions`; a plugin reached by several keys, or by a key and a `plugins:` entry,
 * is applied once with the options merged (the entry's win). Sources come first, ordered by rank.
 */
export async function planPlugins(
  keys: Record<string, unknown>,
  defaults: Record<string, unknown>,
  listed: PluginSpec[],
  env: PlanEnvironment,
): Promise<PlannedPlugin[]> {
  const entries: PlannedPlugin[] = [];
  const loads = startAll(listed, (spec) => (spec.plugin ? { plugin: spec.plugin } : env.load(spec.name ?? "")));
  // The first-party packages the keys name start loading beside the listed plugins, not once those have
  // loaded. A listed plugin that declares such a key leaves them unused (they are installed all the same:
  // createToolkit checked it), and a failure only counts when a key needs the package.
  const importing = new Map<string, Promise<{ plugin: AnyPlugin; from?: string }>>();
  const load = (name: string) => {
    let loading = importing.get(name);
    if (!loading) {
      loading = env.load(name);
      loading.catch(() => {});
      importing.set(name, loading);
    }
    return loading;
  };
  for (const name of firstPartyPluginsOf({ ...defaults, ...keys })) void load(name);
  for (const [index, [spec, loading]] of loads.entries()) {
    const loaded = await locating(env, spec, () => loading);
    entries.push({ ...loaded, options: spec.options, spec, rank: LISTED_RANK + index });
  }
  const consumers = new Map<string, Consumer>();
  const pending = Object.entries(keys);
  const given = (name: string) => pending.some(([key]) => key === name);
  const consume = async (key: string, value: unknown) => {
    const spec: PluginSpec = { name: key, path: [key] };
    for (const { plugin, from } of await locating(env, spec, () => consumersOf(key, entries, load, env))) {
      const declared = plugin.config?.[key];
      if (!declared) throw env.locate(spec, new WeftError("PLUGIN_INVALID", `${plugin.meta.name} is named for the "${key}" key but does not declare it`));
      const checked = await locating(env, spec, () => checkValue(key, plugin, declared, value));
      const options = declared.toOptions(checked, env.context);
      for (const [carried, carriedValue] of Object.entries(declared.carries?.(checked) ?? {})) {
        if (!given(carried)) pending.push([carried, carriedValue]);
      }
      const consumer = consumers.get(plugin.meta.name) ?? { plugin, from, rank: declared.rank, spec };
      consumer.rank = Math.min(consumer.rank, declared.rank);
      if (options) consumer.options = { ...consumer.options, ...options };
      consumers.set(plugin.meta.name, consumer);
    }
  };
  // Carried keys join `pending` as they are found; defaults fill in only what nothing gave.
  for (const [key, value] of pending) await consume(key, value);
  for (const [key, value] of Object.entries(defaults)) if (!given(key)) await consume(key, value);
  const sources: PlannedPlugin[] = [];
  for (const consumer of consumers.values()) {
    const entry = entries.find((candidate) => candidate.plugin.meta.name === consumer.plugin.meta.name);
    if (entry) {
      // One instance: the key's options under the entry's own.
      entries.splice(entries.indexOf(entry), 1);
      sources.push({ ...entry, options: { ...consumer.options, ...(entry.options ?? {}) }, rank: consumer.rank });
    } else if (consumer.options) {
      sources.push({ plugin: consumer.plugin, from: consumer.from, options: consumer.options, spec: consumer.spec, rank: consumer.rank });
    }
  }
  // Stable: plugins of one rank keep the order their keys named them in.
  sources.sort((a, b) => a.rank - b.rank);
  return [...sources, ...entries];
}

/** The first-party packages a key loads when no listed plugin declares it; for the install check. */
export function firstPartyPluginsOf(keys: Record<string, unknown>): string[] {
  return Object.keys(keys).flatMap((key) => CONFIG_KEY_PLUGINS[key]?.plugins ?? []);
}

async function consumersOf(
  key: string,
  entries: PlannedPlugin[],
  load: (name: string) => Promise<{ plugin: AnyPlugin; from?: string }>,
  env: PlanEnvironment,
): Promise<{ plugin: AnyPlugin; from?: string }[]> {
  const listed = entries.filter((entry) => entry.plugin.config?.[key]);
  if (listed.length > 0) return listed;
  const named = CONFIG_KEY_PLUGINS[key]?.plugins ?? [];
  const found: { plugin: AnyPlugin; from?: string }[] = [];
  for (const [, loading] of startAll(named, load)) found.push(await loading);
  found.push(...env.own.filter((plugin) => plugin.config?.[key]).map((plugin) => ({ plugin })));
  if (found.length > 0) return found;
  const known = new Set([...env.ownOptions, ...Object.keys(CONFIG_KEY_PLUGINS), ...entries.flatMap((entry) => Object.keys(entry.plugin.config ?? {}))]);
  throw new UnknownKeyError(
    `unknown option "${key}"; known options: ${[...known].join(", ")} (a third-party plugin's own key needs the plugin listed under plugins)`,
  );
}

async function checkValue(key: string, plugin: AnyPlugin, declared: AnyConfigKey, value: unknown): Promise<never> {
  const problems = await optionProblems(declared.schema, value);
  if (problems.length > 0) throw new PluginOptionsError(`the "${key}" key of ${plugin.meta.name}`, problems);
  return value as never;
}

/**
 * Starts every load at once, so the module loader reads and compiles the plugins' files side by side
 * (the four packs of `builtins` took ~3 ms longer one after another). The caller awaits them in list
 * order, so the first failing entry is the one reported, as before; the others' failures are not unhandled.
 */
function startAll<T, R>(items: readonly T[], load: (item: T) => R | Promise<R>): [T, Promise<R>][] {
  return items.map((item) => {
    const loading = Promise.resolve().then(() => load(item));
    loading.catch(() => {});
    return [item, loading];
  });
}

async function locating<T>(env: PlanEnvironment, spec: PluginSpec, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw env.locate(spec, error);
  }
}
