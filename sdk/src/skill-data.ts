import { Type } from "./typebox-builders.js";

/** A skill given as data, with no filesystem: what `skills:` entries and skill providers hand over. */
export interface SkillData {
  name: string;
  description: string;
  /** The instructions: what `skill_load` shows (a SKILL.md body). */
  content: string;
  /** Text files the skill ships, by relative path. */
  files?: Record<string, string>;
}

/** Returns data skills; called once, lazily, when the skills are first needed. */
export type SkillProvider = () => SkillData[] | Promise<SkillData[]>;

/** The typebox schema of `SkillData`, for options and config keys that take data skills. */
export const skillDataSchema = Type.Object({
  name: Type.String(),
  description: Type.String(),
  content: Type.String(),
  files: Type.Optional(Type.Record(Type.String(), Type.String())),
});
