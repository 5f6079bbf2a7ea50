import { Type } from "./typebox.js";
import type { AnyTool } from "./tool.js";

/**
 * Options every first-party pack shares, spread into its options schema:
 *
 *   options: Type.Object({ ...toolPackOptions, root: Type.String({ default: "." }) })
 *
 * `builtins: true` registers the pack's built-in tools (`bash`, `read`, `webfetch`...) instead of its
 * pack tools (`shell_run`, `file_read`, `web_fetch`...); `tools` drops single tools by name
 * (`{ bash: false }`). Names that are not tools of the pack are ignored, so one drop map can be handed
 * to every pack.
 */
export const toolPackOptions = {
  builtins: Type.Boolean({ default: false, description: "Register the pack's built-in tools instead of its pack tools" }),
  tools: Type.Record(Type.String(), Type.Boolean(), { default: {}, description: "Tool name → false drops that tool" }),
};

/** The tools a drop map keeps, in their original order. */
export function keepTools<T extends Pick<AnyTool, "name">>(tools: T[], switches: Record<string, boolean> = {}): T[] {
  return tools.filter((tool) => switches[tool.name] !== false);
}

/**
 * The drop map's entries for one MCP server (`<server>__<tool>: false`) as that server's `tools`
 * filter (`!<tool>`), for packs that start an MCP server whose tools the host names `<server>__<tool>`.
 */
export function droppedServerTools(server: string, switches: Record<string, boolean> = {}): string[] {
  const prefix = `${server}__`;
  return Object.entries(switches)
    .filter(([name, on]) => !on && name.startsWith(prefix))
    .map(([name]) => `!${name.slice(prefix.length)}`);
}
