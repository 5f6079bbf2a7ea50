import { defineTool, errorCode, errorResult, type ConfinedRoot, Type } from "@weft/sdk";
import { fileFailure } from "./file-failure.js";

const input = Type.Object({
  path: Type.String({ description: "Root-relative" }),
});

/** Deletes a file or an empty folder; never a folder with something in it. */
export function deleteTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description: "Delete a file or an empty folder.",
    input,
    annotations: { destructiveHint: true },
    async execute({ path: requested }) {
      try {
        // Refuses "..", absolute paths and symlinks that lead out, as every file tool does.
        if ((await root.resolve(requested)) === root.path) return errorResult("the root folder itself cannot be deleted");
        // The entry itself, not what a symlink points to: deleting a link removes the link.
        const entry = await root.remove(requested);
        return { output: `deleted ${requested} - ${entry}`, metadata: { path: entry } };
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOTEMPTY" || code === "EEXIST") return errorResult(`${requested} is a folder that is not empty; delete its entries first`);
        return fileFailure(error, requested);
      }
    },
  });
}
