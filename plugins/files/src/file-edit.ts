import { defineTool, errorResult, type ConfinedRoot, Type } from "@weft/sdk";
import { fileFailure } from "./file-failure.js";

const input = Type.Object({
  path: Type.String({ description: "Root-relative" }),
  old_string: Type.String(),
  new_string: Type.String(),
});

/** Files larger than this are not edited: the edit holds the file in memory. */
const MAX_EDIT_BYTES = 16 * 1024 * 1024;

/** Replaces one exact occurrence; writes nothing unless the text occurs exactly once. */
export function editTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description:
      "Replace old_string with new_string in a text file. old_string must match exactly (whitespace too) and only once; add context lines to make it unique.",
    input,
    annotations: { destructiveHint: true },
    async execute({ path: requested, old_string: oldString, new_string: newString }) {
      if (oldString === "") return errorResult(`old_string is empty; give the exact text to replace in ${requested}`);
      try {
        const { handle, path: file } = await root.openFile(requested);
        let text: string;
        try {
          const size = (await handle.stat()).size;
          if (size > MAX_EDIT_BYTES) {
            return errorResult(`${requested} is ${size} bytes, larger than the ${MAX_EDIT_BYTES} bytes file_edit works on; the file is unchanged. Use the shell to change files this large`);
          }
          text = await handle.readFile("utf8");
        } finally {
          await handle.close();
        }
        const first = text.indexOf(oldString);
        if (first < 0) return errorResult(`old_string was not found in ${requested}; the file is unchanged. Read the file and copy the text exactly`);
        const count = occurrences(text, oldString);
        if (count > 1) {
          return errorResult(`old_string occurs ${count} times in ${requested}; the file is unchanged. Add surrounding lines to old_string so it occurs exactly once`);
        }
        await root.writeFile(requested, text.slice(0, first) + newString + text.slice(first + oldString.length));
        return { output: `edited ${requested} - ${file}`, metadata: { path: file } };
      } catch (error) {
        return fileFailure(error, requested);
      }
    },
  });
}

function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) count += 1;
  return count;
}
