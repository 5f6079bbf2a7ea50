import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { errorMessage, type Logger } from "@weft/sdk";
import { compareCodePoints } from "./code-point-order.js";
import { SkillFolderNotFoundError } from "./skill-errors.js";
import { SKIPPED_FOLDERS } from "./skill-files.js";

/**
 * The skill folders under `root`, searched recursively in code-point order so the result (and which
 * duplicate wins) is the same on every run. A folder holding a SKILL.md is a skill and is not searched
 * further. Symlinked folders are followed; `visited` (real paths, shared across roots) makes each
 * folder searched once, which ends symlink cycles and keeps nested roots from finding a skill twice.
 */
export async function discoverSkillFolders(root: string, visited: Set<string>, logger: Logger): Promise<string[]> {
  let real: string;
  try {
    real = await realpath(root);
    if (!(await stat(real)).isDirectory()) throw new Error("not a folder");
  } catch (error) {
    throw new SkillFolderNotFoundError(root, `the skills folder cannot be searched (${errorMessage(error)}); check the path`, { cause: error });
  }
  const found: string[] = [];
  async function search(folder: string): Promise<void> {
    if (visited.has(folder)) return;
    visited.add(folder);
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      logger.warn(`skills: cannot search ${folder}: ${errorMessage(error)}`);
      return;
    }
    if (entries.some((entry) => (entry.name === "SKILL.md" || entry.name === "skill.md") && !entry.isDirectory())) {
      found.push(folder);
      return;
    }
    for (const entry of entries.sort((a, b) => compareCodePoints(a.name, b.name))) {
      if (SKIPPED_FOLDERS.has(entry.name)) continue;
      const absolute = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        await search(absolute);
      } else if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => undefined);
        if (target && (await stat(target).catch(() => undefined))?.isDirectory()) await search(target);
      }
    }
  }
  await search(real);
  return found;
}
