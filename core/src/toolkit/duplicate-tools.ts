import type { Logger, ToolDescriptor, ToolBox, ToolSource } from "@weft/sdk";
import { ownerOf } from "../tool-box.js";

/**
 * Keeps the best-ranked registration of every name and drops the rest, with a warning naming both
 * sources. `rankOf` ranks the plugin that registered a tool (MCP → skills → built-ins → agents → the
 * host's tools); registration order only breaks ties, so a source that sets up late still wins.
 */
export function dropDuplicateTools(toolBox: ToolBox, logger: Logger, rankOf: (plugin: string) => number): void {
  const kept = new Map<string, ToolDescriptor>();
  const rank = (tool: ToolDescriptor) => rankOf(ownerOf(tool) ?? "");
  // Array sort is stable: equal ranks keep registration order.
  const ranked = toolBox.registrations().sort((a, b) => rank(a) - rank(b));
  for (const tool of ranked) {
    const first = kept.get(tool.name);
    if (!first) {
      kept.set(tool.name, tool);
      continue;
    }
    toolBox.drop(tool);
    logger.warn(`tool "${tool.name}" from ${describeSource(tool.source)} dropped: ${describeSource(first.source)} already provides it`);
  }
}

const SOURCE_KINDS: Record<ToolSource["kind"], (id: string) => string> = {
  mcp: (id) => `MCP server ${id}`,
  skill: (id) => `skill collection ${id}`,
  pack: (id) => `plugin ${id}`,
  builtin: (id) => `built-in of ${id}`,
  a2a: (id) => `A2A agent ${id}`,
  app: () => "the application",
};

/** A tool's source as warnings name it: `MCP server fs`, `the application`. */
function describeSource(source: ToolSource): string {
  return SOURCE_KINDS[source.kind]?.(source.id) ?? `${source.kind} ${source.id}`;
}
