import { defineTool, type ConfinedRoot, Type } from "@weft/sdk";

/** The root's absolute path, as resolved when the pack was built. */
export function workdirTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description: "Give the absolute path of the root that paths are relative to.",
    input: Type.Object({}),
    annotations: { readOnlyHint: true },
    execute: () => ({ output: root.path }),
  });
}
