import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { ConfinedRoot } from "@weft/sdk";
import { compareCodePoints } from "./code-point-order.js";

/** Folders never searched, in a skill or in a skills root: they hold tooling, not skill content. */
export const SKIPPED_FOLDERS = new Set([".git", "node_modules"]);

/**
 * Every file of a skill folder, relative to it with `/` separators, sorted by code point. Symlinks are
 * listed only when they resolve inside the folder, and a symlinked folder is walked once (a loop
 * ends there). `exclude` holds relative paths left out (the SKILL.md itself).
 */
export async function listSkillFiles(root: ConfinedRoot, exclude: string[] = []): Promise<string[]> {
  const files: string[] = [];
  const walked = new Set<string>([root.path]);
  async function walk(folder: string, prefix: string): Promise<void> {
    const entries = await readdir(folder, { withFileTypes: true });
    for (const entry of entries.sort((a, b) => compareCodePoints(a.name, b.name))) {
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      const absolute = path.join(folder, entry.name);
      let target = absolute;
      let isFolder = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        try {
          target = await realpath(absolute);
          const info = await stat(target);
          isFolder = info.isDirectory();
          isFile = info.isFile();
        } catch {
          continue; // dangling or looping link
        }
        if (!root.contains(target)) continue;
      }
      if (isFolder) {
        if (SKIPPED_FOLDERS.has(entry.name) || walked.has(target)) continue;
        walked.add(target);
        await walk(target, relative);
      } else if (isFile && !exclude.includes(relative)) {
        files.push(relative);
      }
    }
  }
  await walk(root.path, "");
  return files.sort(compareCodePoints);
}
