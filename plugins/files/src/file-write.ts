import { defineTool, type ConfinedRoot, Type } from "@weft/sdk";
import { fileFailure } from "./file-failure.js";

const input = Type.Object({
  path: Type.String({ description: "Root-relative" }),
  content: Type.String(),
});

/** Creates or replaces a file, creating the folders it needs. */
export function writeTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description: "Create or overwrite a text file, creating missing folders.",
    input,
    annotations: { destructiveHint: true },
    async execute({ path: requested, content }) {
      try {
        const file = await root.writeFile(requested, content);
        return { output: `wrote ${Buffer.byteLength(content)} bytes to ${requested} - ${file}`, metadata: { path: file } };
      } catch (error) {
        return fileFailure(error, requested);
      }
    },
  });
}
