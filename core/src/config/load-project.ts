import path from "node:path";
import { isWeftError, type Kernel, type Logger } from "@weft/sdk";
import { createKernel } from "../kernel.js";
import { PluginOptionsError } from "../plugin-options-error.js";
import { ConfigDocument, pointerToPath } from "./config-document.js";
import { findConfigFile } from "./find-config.js";
import { importPlugin } from "./plugin-resolver.js";
import { parseProjectConfig, type PluginEntry, type ProjectConfig } from "./project-config.js";

export interface LoadProjectOptions {
  /** Where to start looking for weft.config.yaml; the working directory by default. */
  cwd?: string;
  /** An explicit config file (`--config`), relative to `cwd`. */
  config?: string;
  logger?: Logger;
}

export interface Project {
  /** The config file's absolute path. */
  file: string;
  /** Its folder: plugin names and relative paths resolve from here. */
  dir: string;
  config: ProjectConfig;
  kernel: Kernel;
}

/** Top-level config keys that stand for a plugin's options (`mcp: ./mcp.json` enables the MCP plugin). */
const SHORTHANDS: { key: "mcp" | "skills"; plugin: string; option: string }[] = [
  { key: "mcp", plugin: "@weft/plugin-mcp", option: "config" },
  { key: "skills", plugin: "@weft/plugin-skills", option: "paths" },
];

/**
 * Finds and validates weft.config.yaml, resolves each plugin from the config file's folder, checks it
 * and its options, and applies the plugins in list order to a new kernel, which is returned ready.
 * Every error names the file, line, column and option path.
 */
export async function loadProject(options: LoadProjectOptions = {}): Promise<Project> {
  const file = findConfigFile(options.cwd ?? process.cwd(), options.config);
  const dir = path.dirname(file);
  const doc = await ConfigDocument.read(file);
  const config = parseProjectConfig(doc);
  const kernel = createKernel({ logger: options.logger, baseDir: dir });
  try {
    for (const entry of withShorthands(config)) {
      try {
        const { plugin, from } = await importPlugin(entry.name, dir);
        await kernel.use(plugin, entry.options, from);
      } catch (error) {
        throw locate(doc, entry, error);
      }
    }
    await kernel.ready();
    if (config.disableTools.length > 0) kernel.tools.disable(config.disableTools);
  } catch (error) {
    await kernel.close();
    throw error;
  }
  return { file, dir, config, kernel };
}

/** The plugin list with `mcp:`/`skills:` folded in: into the plugin's options when it is listed, else appended. */
function withShorthands(config: ProjectConfig): PluginEntry[] {
  const entries = [...config.plugins];
  for (const { key, plugin, option } of SHORTHANDS) {
    const value = config[key];
    if (value === undefined) continue;
    const listed = entries.findIndex((entry) => [plugin, plugin.replace("@weft/plugin-", "")].includes(entry.name));
    if (listed >= 0) {
      const entry = entries[listed];
      entries[listed] = { ...entry, options: { ...(entry.options as object), [option]: value } };
    } else {
      entries.push({ name: plugin, options: { [option]: value }, path: [key] });
    }
  }
  return entries;
}

/** Pins a plugin's error on the line that enabled it (and on the failing option, when it is one). */
function locate(doc: ConfigDocument, entry: PluginEntry, error: unknown): Error {
  if (error instanceof PluginOptionsError) {
    const [first] = error.problems;
    const more = error.problems.length > 1 ? ` (and ${error.problems.length - 1} more: ${error.problems.slice(1).map((p) => `${p.path} ${p.message}`).join("; ")})` : "";
    return doc.error([...entry.path, ...pointerToPath(first.path)], `invalid option for ${error.plugin}: ${first.message}${more}`);
  }
  if (isWeftError(error)) return doc.error(entry.path, error.message, { code: error.code, cause: error });
  return error as Error;
}
