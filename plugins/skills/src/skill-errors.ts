import { WeftError, type WeftErrorOptions } from "@weft/sdk";

/** A skill name given to `addClaudeSkill` that is not a single folder name. */
export class InvalidSkillNameError extends WeftError {
  constructor(
    readonly skillName: string,
    reason: string,
  ) {
    super("SKILL_INVALID_NAME", `invalid skill name ${JSON.stringify(skillName)}: ${reason}`);
  }
}

/** A skill folder (or skills root) that does not exist or cannot be opened. */
export class SkillFolderNotFoundError extends WeftError {
  constructor(
    readonly folder: string,
    hint: string,
    options: WeftErrorOptions = {},
  ) {
    super("SKILL_FOLDER_NOT_FOUND", `skill folder not found: ${folder}: ${hint}`, options);
  }
}

/** A SKILL.md whose frontmatter cannot be used. The message starts with `file:line` when the line is known. */
export class InvalidFrontmatterError extends WeftError {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    problem: string,
    options: WeftErrorOptions = {},
  ) {
    super("SKILL_INVALID_FRONTMATTER", `${line === undefined ? file : `${file}:${line}`}: ${problem}`, options);
  }
}
