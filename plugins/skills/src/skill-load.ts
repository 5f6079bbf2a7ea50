import { defineTool, Type, type Tool, type ToolSource } from "@weft/sdk";
import { lookUpSkill, type SkillLookup } from "./skill-lookup.js";
import type { Skill } from "./skill.js";
import { xmlAttribute } from "./xml-escape.js";

/** How many files `skill_load` lists when `skillSampleLimit` is 0 (or not given). */
export const DEFAULT_SKILL_SAMPLE_LIMIT = 10;

const input = Type.Object({
  skill_name: Type.String({ description: "The skill's name, as in <available_skills>" }),
});

export function skillLoadTool(lookup: SkillLookup, source: ToolSource, sampleLimit: number): Tool {
  return defineTool({
    name: "skill_load",
    description:
      "Load a skill: its instructions and the list of files it ships. Call it when a task matches a skill's description in <available_skills>, before you start on the task.",
    input,
    source,
    annotations: { readOnlyHint: true },
    execute: async ({ skill_name }) => {
      const found = await lookUpSkill(lookup, skill_name);
      return found.ok ? { output: renderSkill(found.value, sampleLimit) } : found.result;
    },
  });
}

/**
 * `<skill name="...">`, the body, the files (at most `sampleLimit`; 0 means the default, -1 none),
 * then `</skill>`.
 */
function renderSkill(skill: Skill, sampleLimit: number): string {
  const lines = [`<skill name="${xmlAttribute(skill.name)}">`];
  if (skill.body) lines.push(skill.body);
  const limit = sampleLimit === 0 ? DEFAULT_SKILL_SAMPLE_LIMIT : sampleLimit;
  if (limit > 0 && skill.files.length > 0) {
    if (skill.body) lines.push("");
    lines.push("Files in this skill (read one with skill_load_file, run one with skill_execute_file):");
    lines.push(...skill.files.slice(0, limit).map((file) => `- ${file}`));
    const hidden = skill.files.length - limit;
    if (hidden > 0) lines.push(`(${hidden} more ${hidden === 1 ? "file" : "files"} not listed; skill_load_file with an unknown path lists them all)`);
  }
  lines.push("</skill>");
  return lines.join("\n");
}
