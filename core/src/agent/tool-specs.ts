import type { ToolSpec, ToolRegistrar } from "@weft/sdk";

/** The tools as the model is told about them: what the session sees, sorted by name. */
export function toolSpecs(tools: Pick<ToolRegistrar, "list">): ToolSpec[] {
  return tools.list().map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
}
