import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { errorMessage } from "@weft/sdk";
import { parseSkillFile } from "./frontmatter.js";
import { MAX_DESCRIPTION_LENGTH, findSkillFile } from "./skill.js";

const MAX_NAME_LENGTH = 64;
const MAX_COMPATIBILITY_LENGTH = 500;
/** The top-level fields the Agent Skills specification defines. */
const KNOWN_FIELDS = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];
/** Letters of any script (with their combining marks) and digits. */
const NAME_CHARACTER = /^[\p{L}\p{M}\p{N}]$/u;

/**
 * Checks a skill folder against the Agent Skills specification and returns every problem found, one
 * sentence each; an empty list means the skill is valid. Stricter than loading, which only warns.
 */
export async function validateSkill(folder: string): Promise<string[]> {
  const info = await stat(folder).catch(() => undefined);
  if (!info?.isDirectory()) return [`${folder} is not a folder`];
  const skillFile = await findSkillFile(folder);
  if (!skillFile) return [`${folder} holds no SKILL.md`];
  const file = path.join(folder, skillFile);
  let fields: Record<string, unknown>;
  try {
    fields = parseSkillFile(await readFile(file, "utf8"), file).fields;
  } catch (error) {
    return [errorMessage(error)];
  }
  return [
    ...nameProblems(fields.name, path.basename(path.resolve(folder))),
    ...descriptionProblems(fields.description),
    ...textProblems(fields, "compatibility", MAX_COMPATIBILITY_LENGTH),
    ...textProblems(fields, "license"),
    ...textProblems(fields, "allowed-tools"),
    ...metadataProblems(fields.metadata),
    ...Object.keys(fields)
      .filter((field) => !KNOWN_FIELDS.includes(field))
      .map((field) => `unexpected field "${field}": the specification allows ${KNOWN_FIELDS.join(", ")} (put extra data under metadata)`),
  ];
}

function nameProblems(value: unknown, folderName: string): string[] {
  if (value === undefined || value === null || value === "") return ['missing field "name"'];
  if (typeof value !== "string") return ['"name" must be text'];
  const name = value.normalize("NFKC");
  const problems: string[] = [];
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) problems.push(`name "${value}" is ${length} characters long; the limit is ${MAX_NAME_LENGTH}`);
  if (name !== name.toLowerCase()) problems.push(`name "${value}" must be lowercase`);
  const invalid = [...new Set([...name].filter((character) => character !== "-" && !NAME_CHARACTER.test(character)))];
  if (invalid.length > 0) {
    problems.push(`name "${value}" may hold only letters, digits and hyphens, not ${invalid.map((character) => JSON.stringify(character)).join(", ")}`);
  }
  if (name.startsWith("-") || name.endsWith("-")) problems.push(`name "${value}" must not start or end with a hyphen`);
  if (name.includes("--")) problems.push(`name "${value}" must not hold consecutive hyphens`);
  if (name !== folderName.normalize("NFKC")) problems.push(`name "${value}" must match the folder name "${folderName}"`);
  return problems;
}

function descriptionProblems(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return ['missing field "description"'];
  if (typeof value !== "string") return ['"description" must be text'];
  const length = [...value.trim()].length;
  if (length === 0) return ['"description" must not be empty'];
  if (length > MAX_DESCRIPTION_LENGTH) return [`description is ${length} characters long; the limit is ${MAX_DESCRIPTION_LENGTH}`];
  return [];
}

function textProblems(fields: Record<string, unknown>, field: string, maxLength?: number): string[] {
  const value = fields[field];
  if (value === undefined) return [];
  if (typeof value !== "string") return [`"${field}" must be text`];
  const length = [...value].length;
  if (maxLength !== undefined && length > maxLength) return [`${field} is ${length} characters long; the limit is ${maxLength}`];
  return [];
}

function metadataProblems(value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value !== "object" || value === null || Array.isArray(value)) return ['"metadata" must be a map of text keys to text values'];
  return Object.entries(value)
    .filter(([, entry]) => typeof entry !== "string")
    .map(([key]) => `metadata "${key}" must be text (quote the value: ${key}: "...")`);
}
