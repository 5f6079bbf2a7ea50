import { readFile, stat } from "node:fs/promises";
import { ConfinedRoot, type Logger, type SkillData } from "@weft/sdk";
import { parseSkillFile } from "./frontmatter.js";
import { InvalidFrontmatterError, SkillFolderNotFoundError } from "./skill-errors.js";
import { listSkillFiles } from "./skill-files.js";
import { compareCodePoints } from "./code-point-order.js";

/** A skill in a collection: its catalog entry, its instructions, and where its files live. */
export type Skill = FolderSkill | DataSkill;

interface SkillBase {
  name: string;
  description: string;
  body: string;
  /** Relative paths, sorted by code point. */
  files: string[];
  /** Where it came from, for warnings and `weft skills list` (never shown to the model). */
  origin: string;
}

export interface FolderSkill extends SkillBase {
  kind: "folder";
  root: ConfinedRoot;
}

export interface DataSkill extends SkillBase {
  kind: "data";
  contents: Map<string, string>;
}

/** The longest description the specification allows; a longer one loads with a warning. */
export const MAX_DESCRIPTION_LENGTH = 1024;

/** The skill file of a folder: `SKILL.md`, else `skill.md`; undefined when it has neither. */
export async function findSkillFile(folder: string): Promise<string | undefined> {
  for (const candidate of ["SKILL.md", "skill.md"]) {
    const info = await stat(`${folder}/${candidate}`).catch(() => undefined);
    if (info?.isFile()) return candidate;
  }
  return undefined;
}

/**
 * Reads a skill folder: frontmatter, body and file list, once. Later edits on disk do not change the
 * returned skill, except for file contents, which are read when asked for.
 */
export async function loadSkillFolder(folder: string, logger: Logger): Promise<FolderSkill> {
  let root: ConfinedRoot;
  try {
    root = await ConfinedRoot.open(folder);
  } catch (error) {
    throw new SkillFolderNotFoundError(folder, "check the path; a skill is a folder holding a SKILL.md", { cause: error });
  }
  const skillFile = await findSkillFile(root.path);
  if (!skillFile) throw new SkillFolderNotFoundError(folder, "the folder holds no SKILL.md");
  const file = `${root.path}/${skillFile}`;
  const parsed = parseSkillFile(await readFile(await root.resolve(skillFile), "utf8"), file);
  if (parsed.name === undefined) throw new InvalidFrontmatterError(file, undefined, 'the frontmatter has no "name"; add name: <skill-name>');
  if (parsed.description === undefined) {
    throw new InvalidFrontmatterError(file, undefined, 'the frontmatter has no "description"; add description: <what the skill does and when to use it>');
  }
  warnLongDescription(parsed.name, parsed.description, file, logger);
  return {
    kind: "folder",
    name: parsed.name,
    description: parsed.description,
    body: parsed.body,
    files: await listSkillFiles(root, [skillFile]),
    origin: root.path,
    root,
  };
}

/** Checks a skill given as data; a malformed one is an error whose message names `origin`. */
export function dataSkill(data: SkillData, origin: string, logger: Logger): DataSkill {
  const problem = dataProblem(data);
  if (problem) throw new Error(`${origin}: ${problem}`);
  const contents = new Map(Object.entries(data.files ?? {}).map(([file, text]) => [normaliseDataPath(file), text]));
  warnLongDescription(data.name, data.description, origin, logger);
  return {
    kind: "data",
    name: data.name,
    description: data.description.trim(),
    body: data.content.replace(/^\s*\n/, "").trimEnd(),
    files: [...contents.keys()].sort(compareCodePoints),
    origin,
    contents,
  };
}

/** `./a//b` and `a/b` name the same file, in a `files` map and in a tool call alike. */
export function normaliseDataPath(file: string): string {
  return file
    .split(/[\\/]+/)
    .filter((segment) => segment !== "" && segment !== ".")
    .join("/");
}

function dataProblem(data: SkillData): string | undefined {
  if (typeof data !== "object" || data === null) return "a skill must be an object { name, description, content, files? }";
  for (const field of ["name", "description", "content"] as const) {
    if (typeof data[field] !== "string" || (field !== "content" && data[field].trim() === "")) return `a skill needs a "${field}" text`;
  }
  if (data.files !== undefined) {
    if (typeof data.files !== "object" || data.files === null) return `skill "${data.name}": "files" must map relative paths to text`;
    for (const [file, text] of Object.entries(data.files)) {
      if (typeof text !== "string") return `skill "${data.name}": file ${file} must be text`;
    }
  }
  return undefined;
}

function warnLongDescription(name: string, description: string, where: string, logger: Logger): void {
  if ([...description].length > MAX_DESCRIPTION_LENGTH) {
    logger.warn(`skill "${name}" (${where}): the description is longer than ${MAX_DESCRIPTION_LENGTH} characters; shorten it, every session's prompt carries it`);
  }
}
