import path from "node:path";
import { coreBuiltins } from "../builtins/core-builtins.js";
import type { PluginSpec, ToolkitOptions } from "./toolkit-options.js";

/** The packs that provide the built-in tools, in assembly order; the core's own come last. */
export const BUILTIN_PACKS = ["@weft/plugin-shell", "@weft/plugin-files", "@weft/plugin-web", "@weft/plugin-coding"];

/** Built-in packs whose paths are confined to a root: the toolkit's base folder. */
const ROOTED = ["@weft/plugin-files", "@weft/plugin-coding"];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The plugins an options object calls for, in the fixed assembly order MCP → skills → built-ins →
 * agents, each loaded by name at run time. The plugins that connect to something (MCP servers, agent
 * cards) get the load's signal, which a deadline aborts.
 */
export function toolSourcePlugins(options: ToolkitOptions, baseDir: string, signal: AbortSignal): PluginSpec[] {
  // A parsed mcp.json may carry `builtins` and `agents` too; the options win.
  const mcpObject = isRecord(options.mcpConfig) ? options.mcpConfig : {};
  const builtins = options.builtins ?? (mcpObject.builtins as ToolkitOptions["builtins"]) ?? true;
  const agents = options.agents ?? (mcpObject.agents as ToolkitOptions["agents"]);
  const specs: PluginSpec[] = [];

  if (options.mcpConfig !== undefined) {
    specs.push({ name: "@weft/plugin-mcp", options: { config: options.mcpConfig, signal, waitFor: options.waitFor }, path: ["mcp"] });
  }
  const skillsDir = options.skillsDir === undefined ? undefined : [options.skillsDir].flat();
  if (skillsDir || options.skills || options.skillProvider) {
    specs.push({
      name: "@weft/plugin-skills",
      options: {
        paths: skillsDir,
        skills: options.skills,
        skillProvider: options.skillProvider,
        skillsFilter: options.skillsFilter,
        disableSkills: options.disableSkills,
        // 0 means the default here as in the skills plugin; leaving it out says the same.
        skillSampleLimit: options.skillSampleLimit || undefined,
      },
      path: ["skills"],
    });
  }
  if (builtins !== false) {
    // The host's own tools shadow built-ins of the same name: drop those built-ins before assembly.
    const drops = Object.fromEntries((options.extraTools ?? []).map((tool) => [tool.name, false]));
    const tools = { ...(isRecord(builtins) ? builtins.tools : {}), ...drops };
    for (const name of BUILTIN_PACKS) {
      const root = ROOTED.includes(name) ? { root: path.resolve(baseDir) } : {};
      specs.push({ name, options: { builtins: true, tools, ...root }, path: ["builtins"] });
    }
    specs.push({ plugin: coreBuiltins, options: { tools }, path: ["builtins"] });
  }
  if (agents && agents.length > 0) specs.push({ name: "@weft/plugin-a2a", options: { agents, signal, deadline: options.deadline }, path: ["agents"] });
  return specs;
}
