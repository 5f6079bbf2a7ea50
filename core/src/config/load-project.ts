import path from "node:path";
import { PROVIDER_PLUGINS, isWeftError, type FeedbackEvent, type Kernel, type Logger, type WaitFor } from "@weft/sdk";
import { PluginOptionsError } from "../plugin-options-error.js";
import { createToolkit, type Toolkit } from "../toolkit/toolkit.js";
import { UnknownKeyError } from "../toolkit/plugin-plan.js";
import type { PluginSpec } from "../toolkit/toolkit-options.js";
import { ConfigDocument } from "./config-document.js";
import { pointerToPath } from "./json-pointer.js";
import { projectMcpJson } from "./project-mcp-json.js";
import { findConfigFile } from "./find-config.js";
import { ensureProjectTrusted, type TrustOptions } from "./project-trust.js";
import { keepPassedChecks, recallPassedChecks } from "./check-cache.js";
import { pluginCandidates } from "./plugin-resolver.js";
import { PROJECT_OPTIONS, parseProjectConfig, type ProjectConfig } from "./project-config.js";

export interface LoadProjectOptions {
  /** Where to start looking for weft.config.yaml; the working directory by default. */
  cwd?: string;
  /** An explicit config file (`--config`), relative to `cwd`. */
  config?: string;
  logger?: Logger;
  /** The host's resolver for suspensions (MCP elicitations, A2A input requests, `question`). */
  waitFor?: WaitFor;
  /** Sees feedback from the start of the load (MCP servers starting). */
  feedback?: (event: FeedbackEvent) => void;
  /** A model to use instead of the config's `model` (its provider's plugin is loaded either way). */
  model?: string;
  /** How a config that would run code gets trusted (see `ensureProjectTrusted`); `true` skips the check (the caller vouches for it). */
  trust?: TrustOptions | true;
}

export interface Project {
  /** The config file's absolute path. */
  file: string;
  /** Its folder: plugin names and relative paths resolve from here. */
  dir: string;
  config: ProjectConfig;
  toolkit: Toolkit;
  kernel: Kernel;
}

/**
 * Finds and validates weft.config.yaml and builds its toolkit: every key a plugin declares (`mcp`,
 * `skills`, `builtins`, `agents`, a listed plugin's own) and its `plugins`, each resolved from the
 * config file's folder. Every error names the file, line, column and option path.
 */
export async function loadProject(options: LoadProjectOptions = {}): Promise<Project> {
  const file = findConfigFile(options.cwd ?? process.cwd(), options.config);
  const dir = path.dirname(file);
  // The option checks the config's last start passed are not run again (check-cache.ts).
  const recalled = recallPassedChecks(file, process.env);
  const doc = await readDocument(file);
  const config = parseProjectConfig(doc);
  if (options.trust !== true) await ensureProjectTrusted(file, config, options.trust);
  const toolkit = await createToolkit(
    {
      baseDir: dir,
      logger: options.logger,
      waitFor: options.waitFor,
      // Each key goes to the plugin that declares it; `.mcp.json` stands in for a missing `mcp:`.
      ...config.keys,
      mcp: config.mcp ?? projectMcpJson(dir),
      disableTools: config.disableTools,
      deadline: config.deadline,
      feedback: options.feedback,
      plugins: [
        ...config.plugins.map((entry): PluginSpec => ({ name: entry.name, options: entry.options, path: entry.path })),
        ...providerPlugin(config, options.model),
      ],
    },
    // A project lists the built-ins it wants; a library's createToolkit has them on by default.
    { locate: (spec, error) => locate(doc, spec, error), defaults: false, ownOptions: PROJECT_OPTIONS },
  );
  await keepPassedChecks(file, recalled, doc.expandedValues, process.env);
  return { file, dir, config, toolkit, kernel: toolkit.kernel };
}

/** Reads and validates a config file without loading anything it names. */
export async function readProjectConfig(file: string): Promise<ProjectConfig> {
  return parseProjectConfig(await readDocument(file));
}

// yaml loads with the first read of a text the config cache does not hold, not with every import of @weft/core.
// The reader itself (4 KB) comes with core: a chunk of its own cost `weft tools` a file and a resolution of @weft/sdk.
function readDocument(file: string): Promise<ConfigDocument> {
  return ConfigDocument.read(file);
}

/**
 * The first-party plugin of the model's provider when the project does not list it, so that
 * `model: anthropic/...` works without also writing `plugins: [anthropic]`.
 */
function providerPlugin(config: ProjectConfig, override?: string): PluginSpec[] {
  const ref = override ?? config.model;
  const plugin = ref ? PROVIDER_PLUGINS[ref.slice(0, ref.indexOf("/"))] : undefined;
  if (!plugin) return [];
  const listed = config.plugins.some((entry) => pluginCandidates(entry.name).includes(plugin));
  return listed ? [] : [{ name: plugin, path: override ? [] : ["model"] }];
}

/** Pins a plugin's error on the line that enabled it (and on the failing option, when it is one). */
function locate(doc: ConfigDocument, spec: PluginSpec, error: unknown): Error {
  const at = spec.path ?? [];
  if (error instanceof PluginOptionsError) {
    const [first = { path: "", message: "is invalid" }, ...rest] = error.problems;
    const more = rest.length > 0 ? ` (and ${rest.length} more: ${rest.map((problem) => `${problem.path} ${problem.message}`).join("; ")})` : "";
    return doc.error([...at, ...pointerToPath(first.path)], `invalid option for ${error.plugin}: ${first.message}${more}`);
  }
  if (error instanceof UnknownKeyError) return doc.error(at, error.message, { code: error.code, cause: error, atKey: true });
  if (isWeftError(error)) return doc.error(at, error.message, { code: error.code, cause: error });
  return error as Error;
}
