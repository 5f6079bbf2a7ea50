import path from "node:path";
import { Type } from "@weft/sdk/typebox";
import { PLUGIN_API_VERSION, definePlugin } from "@weft/sdk";
import { createSkillCollection, type SkillProvider } from "./skill-collection.js";

export const skillsPluginOptions = Type.Object({
  /** Skills roots, relative to the config file's folder; `skills: [./skills]` in weft.config.yaml lands here. */
  paths: Type.Optional(Type.Array(Type.String())),
  /** Skills given as data (for hosts that configure the plugin in code, such as a toolkit). */
  skills: Type.Optional(
    Type.Array(
      Type.Object({
        name: Type.String(),
        description: Type.String(),
        content: Type.String(),
        files: Type.Optional(Type.Record(Type.String(), Type.String())),
      }),
    ),
  ),
  /** A function returning data skills, called once when the collection is first needed (code only). */
  skillProvider: Type.Optional(Type.Unsafe<SkillProvider>({})),
  skillsFilter: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.Boolean())])),
  disableSkills: Type.Optional(Type.Array(Type.String())),
  skillSampleLimit: Type.Optional(Type.Integer({ minimum: -1 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Agent skills from SKILL.md folders: the catalog in the system prompt and three tools to use them. */
export default definePlugin({
  meta: { name: "@weft/plugin-skills", version: "0.1.0", api: PLUGIN_API_VERSION, description: "Agent skills: SKILL.md folders loaded on demand" },
  options: skillsPluginOptions,
  async setup(api, options) {
    const collection = createSkillCollection({
      skillsDir: (options.paths ?? []).map((folder) => path.resolve(api.baseDir, folder)),
      skills: options.skills,
      skillProvider: options.skillProvider,
      skillsFilter: options.skillsFilter,
      disableSkills: options.disableSkills,
      skillSampleLimit: options.skillSampleLimit,
      timeoutMs: options.timeoutMs,
      logger: api.logger,
    });
    await collection.register(api);
  },
});
