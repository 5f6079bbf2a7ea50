import path from "node:path";
import { findConfigFile, readProjectConfig } from "@weft/core/project";
import { listSkills, validateSkill, type SkillCollectionOptions } from "@weft/plugin-skills";
import { defineCommand, UsageError } from "../command.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { formatTable } from "../table.js";

export default defineCommand({
  usage: "skills list [options] | skills validate <folder>",
  flags: { ...CONFIG_FLAG, ...JSON_FLAG },
  examples: ["weft skills list", "weft skills validate ./skills/release-notes"],
  async run({ values, positionals }, io) {
    const [action, folder] = positionals;
    if (action === "validate") {
      if (!folder) throw new UsageError("name the skill folder to validate");
      const problems = await validateSkill(path.resolve(io.cwd, folder));
      if (problems.length === 0) {
        io.stdout.write(`${folder}: valid\n`);
        return 0;
      }
      io.stderr.write(`${problems.map((problem) => `${folder}: ${problem}`).join("\n")}\n`);
      return 1;
    }
    if (action !== "list") throw new UsageError('say "list" or "validate <folder>"');
    const file = findConfigFile(io.cwd, values.config);
    const config = await readProjectConfig(file);
    const skills = await listSkills({
      skillsDir: (config.skills ?? []).map((root) => path.resolve(path.dirname(file), root)),
      // The skills plugin validates these keys when the project loads; listing reads them as written.
      skillsFilter: config.keys.skillsFilter as SkillCollectionOptions["skillsFilter"],
      disableSkills: config.keys.disableSkills as string[] | undefined,
    });
    if (values.json) {
      io.stdout.write(`${JSON.stringify(skills, null, 2)}\n`);
      return 0;
    }
    const rows = skills.map((skill) => [skill.name, String(skill.files.length), path.relative(path.dirname(file), skill.location), skill.description]);
    io.stdout.write(`${formatTable([["SKILL", "FILES", "FOLDER", "DESCRIPTION"], ...rows])}\n${skills.length} skills\n`);
    return 0;
  },
});
