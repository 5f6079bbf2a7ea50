import type { Skill } from "./skill.js";
import { xmlText } from "./xml-escape.js";

/** The line before the catalog that tells the model what to do with it. */
export const CATALOG_LEAD_IN =
  "The skills below hold instructions for specific tasks. When a task matches a skill's description, call skill_load with its name before you start.";

/**
 * The system-prompt section listing the skills by name and description, or "" when there are none.
 * `skills` must already be sorted (code-point order) so the prompt is the same bytes every session.
 */
export function renderCatalog(skills: Skill[]): string {
  if (skills.length === 0) return "";
  const entries = skills.map((skill) => `<skill>\n<name>${xmlText(skill.name)}</name>\n<description>${xmlText(skill.description)}</description>\n</skill>`);
  return [CATALOG_LEAD_IN, "<available_skills>", ...entries, "</available_skills>"].join("\n");
}
