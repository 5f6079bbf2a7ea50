import path from "node:path";
import { defineConfigKey, definePlugin, PLUGIN_API_VERSION, skillDataSchema, Type, type SkillProvider } from "@weft/sdk";
import { createSkillCollection } from "./skill-collection.js";

declare module "@weft/sdk" {
  interface WeftServices {
    /** Data skills a host hands over in code (`createToolkit({ services: { skillProvider } })`), called once when first needed. */
    skillProvider: SkillProvider;
  }
}

const skillsFilter = Type.Union([Type.Array(Type.String()), Type.Record(Type.String(), Type.Boolean())]);

export const skillsPluginOptions = Type.Object({
  /** Skills roots, relative to the config file's folder; `skills: [./skills]` in weft.config.yaml lands here. */
  paths: Type.Optional(Type.Array(Type.String())),
  /** Skills given as data (for hosts that configure the plugin in code, such as a toolkit). */
  skills: Type.Optional(Type.Array(skillDataSchema)),
  skillsFilter: Type.Optional(skillsFilter),
  disableSkills: Type.Optional(Type.Array(Type.String())),
  skillSampleLimit: Type.Optional(Type.Integer({ minimum: -1 })),
  timeoutMs: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Skills rank after MCP (10) and before the built-ins (30) when tool names clash. */
const SKILLS_RANK = 20;
const folders = Type.Union([Type.String(), Type.Array(Type.String())]);

/**
 * The project's (and the toolkit's) keys: `skills` (folders, or data skills in code), `skillsDir`,
 * `skillsFilter`, `disableSkills`, `skillSampleLimit` (0 means the default, as leaving it out does).
 */
const skillsConfig = {
  skills: defineConfigKey({
    schema: Type.Union([folders, Type.Array(Type.Union([Type.String(), skillDataSchema]))]),
    rank: SKILLS_RANK,
    toOptions: (value) => {
      const list = [value].flat();
      return { paths: list.filter((item) => typeof item === "string"), skills: list.filter((item) => typeof item !== "string") };
    },
  }),
  skillsDir: defineConfigKey({ schema: folders, rank: SKILLS_RANK, toOptions: (value) => ({ paths: [value].flat() }) }),
  skillsFilter: defineConfigKey({ schema: skillsFilter, rank: SKILLS_RANK, toOptions: (value) => ({ skillsFilter: value }) }),
  disableSkills: defineConfigKey({ schema: Type.Array(Type.String()), rank: SKILLS_RANK, toOptions: (value) => ({ disableSkills: value }) }),
  skillSampleLimit: defineConfigKey({
    schema: Type.Integer({ minimum: -1 }),
    rank: SKILLS_RANK,
    toOptions: (value) => (value === 0 ? {} : { skillSampleLimit: value }),
  }),
};

/** Agent skills from SKILL.md folders: the catalog in the system prompt and three tools to use them. */
export default definePlugin({
  meta: { name: "@weft/plugin-skills", version: "0.1.0", api: PLUGIN_API_VERSION, description: "Agent skills: SKILL.md folders loaded on demand" },
  options: skillsPluginOptions,
  config: skillsConfig,
  async setup(api, options) {
    const collection = createSkillCollection({
      skillsDir: (options.paths ?? []).map((folder) => path.resolve(api.baseDir, folder)),
      skills: options.skills,
      skillProvider: api.has("skillProvider") ? api.need("skillProvider") : undefined,
      skillsFilter: options.skillsFilter,
      disableSkills: options.disableSkills,
      skillSampleLimit: options.skillSampleLimit,
      timeoutMs: options.timeoutMs,
      logger: api.logger,
    });
    await collection.register(api);
  },
});
