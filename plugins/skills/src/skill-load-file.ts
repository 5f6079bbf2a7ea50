import { DEFAULT_MAX_OUTPUT_BYTES, defineTool, errorResult, Type, type Tool, type ToolResult, type ToolSource } from "@weft/sdk";
import { binaryType, decodeText } from "./file-type.js";
import type { FolderSkill } from "./skill.js";
import { fileFailure, lookUpFile, lookUpSkill, type SkillLookup } from "./skill-lookup.js";

/** The largest file `skill_load_file` returns; the same 1 MiB that caps a script's output. */
const MAX_LOADED_FILE_BYTES = DEFAULT_MAX_OUTPUT_BYTES;

const input = Type.Object({
  skill_name: Type.String({ description: "The skill's name" }),
  path: Type.String({ description: "The file's path relative to the skill folder, as skill_load lists it" }),
});

export function skillLoadFileTool(lookup: SkillLookup, source: ToolSource): Tool {
  return defineTool({
    name: "skill_load_file",
    description: "Read a text file a skill ships (a reference, a template, a script's source), by its path relative to the skill folder as skill_load lists it.",
    input,
    source,
    annotations: { readOnlyHint: true },
    execute: async ({ skill_name, path }) => {
      const skill = await lookUpSkill(lookup, skill_name);
      if (!skill.ok) return skill.result;
      const file = lookUpFile(skill.value, path);
      if (!file.ok) return file.result;
      if (skill.value.kind === "data") return { output: skill.value.contents.get(file.value)! };
      return readText(skill.value, file.value);
    },
  });
}

async function readText(skill: FolderSkill, file: string): Promise<ToolResult> {
  let content: Buffer;
  let size: number;
  try {
    // Race-free and regular files only: a FIFO in a skill folder is refused, never waited on.
    const { handle } = await skill.root.openFile(file);
    try {
      size = (await handle.stat()).size;
      // One byte past the cap tells a file that is too large (or grew since it was listed).
      const buffer = Buffer.alloc(Math.min(size, MAX_LOADED_FILE_BYTES) + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      content = buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  } catch (error) {
    return fileFailure("read", file, error);
  }
  const tooLarge = content.length > MAX_LOADED_FILE_BYTES;
  // A file past the cap is judged by its head alone: cutting it may split a UTF-8 character.
  const text = tooLarge ? undefined : decodeText(content);
  if (text === undefined && (!tooLarge || content.subarray(0, 8192).includes(0))) {
    return errorResult(`${file} is a binary file (${binaryType(content)}, ${Math.max(size, content.length)} bytes); skill_load_file reads text files only`);
  }
  if (text === undefined) return errorResult(`${file} is too large to load (${Math.max(size, content.length)} bytes; the limit is ${MAX_LOADED_FILE_BYTES})`);
  return { output: text };
}
