export { default } from "./plugin.js";
export { skillsPluginOptions } from "./plugin.js";
export {
  createSkillCollection,
  listSkills,
  type SkillCollection,
  type SkillCollectionOptions,
  type SkillSummary,
} from "./skill-collection.js";
export { validateSkill } from "./validate-skill.js";
export { InvalidFrontmatterError, InvalidSkillNameError, SkillFolderNotFoundError } from "./skill-errors.js";
// The data-skill types are the sdk's; re-exported for code that imports them from here.
export type { SkillData, SkillProvider } from "@weft/sdk";
export { CATALOG_LEAD_IN } from "./catalog.js";
export { DEFAULT_SKILL_SAMPLE_LIMIT } from "./skill-load.js";
export { DEFAULT_SKILL_TIMEOUT_MS } from "./skill-execute-file.js";
