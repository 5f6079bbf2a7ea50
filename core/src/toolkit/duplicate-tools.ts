import type { Logger, ToolDescriptor, ToolBox, ToolSource } from "@weft/sdk";

/**
 * Keeps the first registration of every name and drops the rest, with a warning naming both sources.
 * Registration order is assembly order (MCP → skills → built-ins → agents → the host's tools), so the
 * first is the one the fixed order prefers.
 */
export function dropDuplicateTools(toolBox: ToolBox, logger: Logger): void {
  const kept = new Map<string, ToolDescriptor>();
  for (const tool of toolBox.registrations()) {
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
export function describeSource(source: ToolSource): string {
  return SOURCE_KINDS[source.kind]?.(source.id) ?? `${source.kind} ${source.id}`;
}
