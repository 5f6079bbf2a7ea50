import { PathRefusedError, defineTool, errorMessage, errorResult, type ConfinedRoot, Type } from "@weft/sdk";
import { parsePatch, PatchSyntaxError } from "./patch-parser.js";

export const APPLY_PATCH_DESCRIPTION = `Add, change and delete files under the working folder with one patch. The patch is text in this format:

*** Begin Patch
*** Add File: <path>
+<each line of the new file, after a +>
*** Update File: <path>
*** Move to: <new path>   (optional: rename the file too)
@@ <optional: a line above the change, such as the function it is in>
 <a context line, after a space>
-<a line to remove>
+<a line to add>
*** Delete File: <path>
*** End Patch

Paths are relative to the working folder. In an update, give about 3 lines of unchanged context before and after each change, start each further change with @@, and end a change that reaches the end of the file with "*** End of File". Every change is checked before anything is written: if one does not apply, no file is changed.`;

/** `apply_patch {patch}`: the whole patch applies, or nothing is written. */
export function applyPatchTool(root: ConfinedRoot, name = "apply_patch") {
  return defineTool({
    name,
    description: APPLY_PATCH_DESCRIPTION,
    input: Type.Object({ patch: Type.String({ description: "The patch, from *** Begin Patch to *** End Patch" }) }),
    annotations: { destructiveHint: true },
    async execute({ patch }) {
      // The file-writing half loads with the first patch, not with the pack (the parser is public API).
      const { commitPatch, planPatch, PatchConflictError } = await import("./patch-plan.js");
      try {
        const changes = await planPatch(root, parsePatch(patch));
        await commitPatch(changes);
        return {
          output: ["Success. Updated the following files:", ...changes.map((change) => `${change.mark} ${change.shown}`)].join("\n"),
          metadata: { files: changes.map((change) => ({ mark: change.mark, path: change.shown })) },
        };
      } catch (error) {
        if (error instanceof PatchSyntaxError) return errorResult(`apply_patch failed, nothing was written: invalid patch: ${error.message}`);
        if (error instanceof PatchConflictError || error instanceof PathRefusedError) return errorResult(`apply_patch failed, nothing was written: ${error.message}`);
        return errorResult(`apply_patch failed: ${errorMessage(error)}; files already written were put back`);
      }
    },
  });
}
