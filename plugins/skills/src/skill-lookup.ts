import { PathRefusedError, errorCode, errorMessage, errorResult, type ToolResult } from "@weft/sdk";
import { normaliseDataPath, type Skill } from "./skill.js";

/** What the skill tools need from a collection. */
export interface SkillLookup {
  /** The active skill of that name. */
  find(name: string): Promise<Skill | undefined>;
  /** The active skills' names, sorted. */
  names(): Promise<string[]>;
}

export type Found<T> = { ok: true; value: T } | { ok: false; result: ToolResult };

/** The skill a tool call names, or the error result listing the available names. */
export async function lookUpSkill(lookup: SkillLookup, name: string): Promise<Found<Skill>> {
  const skill = await lookup.find(name);
  if (skill) return { ok: true, value: skill };
  const names = await lookup.names();
  return { ok: false, result: errorResult(`unknown skill: ${name}. Available skills: ${names.length ? names.join(", ") : "(none)"}`) };
}

/**
 * The listed file a tool call names, as a relative path. Only files the skill ships are reachable:
 * `..`, absolute paths and symlinks out of the folder were never listed, so they are refused here
 * with the list of what can be asked for.
 */
export function lookUpFile(skill: Skill, requested: string): Found<string> {
  const file = normaliseDataPath(requested);
  if (skill.files.includes(file) && !requested.startsWith("/")) return { ok: true, value: file };
  const files = skill.files.length ? skill.files.join(", ") : "(none)";
  return { ok: false, result: errorResult(`no file ${requested} in skill ${skill.name}. Files in this skill: ${files}`) };
}

/** Text for an error touching a skill's file; an fs message would reveal the folder's real path. */
export function fileFailure(action: string, file: string, error: unknown): ToolResult {
  if (error instanceof PathRefusedError) return errorResult(error.message);
  const code = errorCode(error);
  return errorResult(`cannot ${action} ${file}: ${code ?? errorMessage(error)}`);
}
