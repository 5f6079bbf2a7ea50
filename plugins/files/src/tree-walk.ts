import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { ConfinedRoot } from "@weft/sdk";

/** Folders a search does not enter unless it starts inside one: they are huge and rarely what is meant. */
const SKIPPED_FOLDERS: readonly string[] = [".git", "node_modules"];

export interface WalkedFile {
  /** Real absolute path. */
  absolute: string;
  /** Relative to the root, `/`-separated. */
  relative: string;
}

/**
 * Every file under `start` (a folder or a single file, already resolved inside the root), depth first
 * in name order so results are stable. Symlinked files are followed only when they stay inside the
 * root; symlinked folders are never entered, which also rules out loops.
 */
export async function* walkFiles(root: ConfinedRoot, start: string, signal?: AbortSignal): AsyncGenerator<WalkedFile> {
  if ((await stat(start)).isDirectory()) yield* walkFolder(root, start, signal);
  else yield { absolute: start, relative: root.relative(start) };
}

async function* walkFolder(root: ConfinedRoot, folder: string, signal?: AbortSignal): AsyncGenerator<WalkedFile> {
  signal?.throwIfAborted();
  // Read through the opened folder, so a folder swapped for a symlink mid-walk is refused, not listed.
  const entries = (await root.readFolder(root.relative(folder))).entries.sort((a, b) => compareNames(a.name, b.name));
  for (const entry of entries) {
    const absolute = path.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.includes(entry.name)) yield* walkFolder(root, absolute, signal);
    } else if (entry.isFile()) {
      yield { absolute, relative: root.relative(absolute) };
    } else if (entry.isSymbolicLink()) {
      const target = await linkedFile(root, absolute);
      if (target) yield { absolute: target, relative: root.relative(absolute) };
    }
  }
}

async function linkedFile(root: ConfinedRoot, link: string): Promise<string | undefined> {
  try {
    const target = await realpath(link);
    return root.contains(target) && (await stat(target)).isFile() ? target : undefined;
  } catch {
    return undefined;
  }
}

/** Code-point order, the same on every machine (no locale). */
export function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
