import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";

/** A real temporary folder, removed by `remove()`. */
export interface TempFolder {
  path: string;
  remove(): Promise<void>;
}

export async function tempFolder(prefix = "weft-skills-"): Promise<TempFolder> {
  const folder = await realpath(await mkdtemp(path.join(tmpdir(), prefix)));
  return { path: folder, remove: () => rm(folder, { recursive: true, force: true }) };
}

export interface SkillFixture {
  /** The SKILL.md text; written verbatim. */
  skillMd?: string;
  name?: string;
  description?: string;
  body?: string;
  /** Relative path → text; a `mode` makes it executable. */
  files?: Record<string, string | { text: string; mode: number }>;
}

/** Writes a skill folder at `folder` and returns its path. */
export async function writeSkill(folder: string, fixture: SkillFixture = {}): Promise<string> {
  await mkdir(folder, { recursive: true });
  const name = fixture.name ?? path.basename(folder);
  const skillMd = fixture.skillMd ?? `---\nname: ${name}\ndescription: ${fixture.description ?? `The ${name} skill`}\n---\n${fixture.body ?? `# ${name}\n\nDo the ${name} thing.\n`}`;
  await writeFile(path.join(folder, "SKILL.md"), skillMd);
  for (const [relative, content] of Object.entries(fixture.files ?? {})) {
    const file = path.join(folder, relative);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === "string" ? content : content.text);
    if (typeof content !== "string") await chmod(file, content.mode);
  }
  return folder;
}
