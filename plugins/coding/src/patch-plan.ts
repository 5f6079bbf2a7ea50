import { chmod, mkdir, readFile, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ConfinedRoot } from "@weft/sdk";
import type { PatchChunk, PatchOperation } from "./patch-parser.js";

/** One file's change, computed in full before anything is written. */
export interface FileChange {
  /** `A`dded, `M`odified (or moved), `D`eleted, as the summary shows it. */
  mark: "A" | "M" | "D";
  /** The path the summary names (the new one for a move). */
  shown: string;
  /** Files written (path → content) and removed by this change. */
  writes: { file: string; content: string; mode?: number }[];
  removes: string[];
}

/** Why a patch cannot be applied; nothing has been written when it is thrown. */
export class PatchConflictError extends Error {}

/**
 * Checks every operation against the files as they are and computes the result, without writing:
 * a patch applies entirely or not at all.
 */
export async function planPatch(root: ConfinedRoot, operations: PatchOperation[]): Promise<FileChange[]> {
  const claimed = new Set<string>();
  const claim = async (requested: string) => {
    const file = await root.resolve(requested);
    if (claimed.has(file)) throw new PatchConflictError(`${requested} appears more than once in the patch; merge its changes into one operation`);
    claimed.add(file);
    return file;
  };
  const changes: FileChange[] = [];
  for (const operation of operations) {
    const file = await claim(operation.path);
    if (operation.kind === "add") {
      if (await exists(file)) throw new PatchConflictError(`cannot add ${operation.path}: it already exists; use "*** Update File:" to change it`);
      changes.push({ mark: "A", shown: operation.path, writes: [{ file, content: operation.content }], removes: [] });
      continue;
    }
    const info = await existingFile(file, operation.path);
    if (operation.kind === "delete") {
      changes.push({ mark: "D", shown: operation.path, writes: [], removes: [file] });
      continue;
    }
    const content = applyChunks(await readFile(file, "utf8"), operation.chunks, operation.path);
    if (operation.moveTo === undefined) {
      changes.push({ mark: "M", shown: operation.path, writes: [{ file, content }], removes: [] });
      continue;
    }
    const target = await claim(operation.moveTo);
    if (await exists(target)) throw new PatchConflictError(`cannot move ${operation.path} to ${operation.moveTo}: it already exists`);
    changes.push({ mark: "M", shown: operation.moveTo, writes: [{ file: target, content, mode: info.mode }], removes: [file] });
  }
  return changes;
}

/**
 * Writes a planned patch. Should the disk fail half-way, what was already written is put back, so
 * even then the files end as they were.
 */
export async function commitPatch(changes: FileChange[]): Promise<void> {
  const undo: (() => Promise<unknown>)[] = [];
  try {
    for (const change of changes) {
      for (const write of change.writes) {
        const before = await readFile(write.file, "utf8").catch(() => undefined);
        await mkdir(path.dirname(write.file), { recursive: true });
        await writeFile(write.file, write.content);
        if (write.mode !== undefined) await chmod(write.file, write.mode);
        undo.push(() => (before === undefined ? unlink(write.file) : writeFile(write.file, before)));
      }
      for (const file of change.removes) {
        const before = await readFile(file);
        const { mode } = await stat(file);
        await unlink(file);
        undo.push(async () => {
          await writeFile(file, before);
          await chmod(file, mode);
        });
      }
    }
  } catch (error) {
    for (const step of undo.reverse()) await step().catch(() => undefined);
    throw error;
  }
}

/** The file's new text: each chunk found below the previous one, then all replaced at once. */
function applyChunks(text: string, chunks: PatchChunk[], shown: string): string {
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  const replacements: { at: number; remove: number; insert: string[] }[] = [];
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const which = chunks.length > 1 ? `chunk ${index + 1} of ${shown}` : `the chunk of ${shown}`;
    if (chunk.anchor !== undefined) {
      const anchorAt = seek(lines, [chunk.anchor], cursor, false);
      if (anchorAt < 0) throw new PatchConflictError(`${which}: the "@@ ${chunk.anchor}" line was not found in the file`);
      cursor = anchorAt + 1;
    }
    if (chunk.oldLines.length === 0) {
      // Only added lines and no context: they go at the end of the file.
      replacements.push({ at: lines.length, remove: 0, insert: chunk.newLines });
      return;
    }
    const at = seek(lines, chunk.oldLines, cursor, chunk.atEndOfFile);
    if (at < 0) {
      throw new PatchConflictError(`${which} does not match the file; these lines were not found${chunk.anchor === undefined ? "" : " below the @@ line"}:\n${chunk.oldLines.join("\n")}`);
    }
    replacements.push({ at, remove: chunk.oldLines.length, insert: chunk.newLines });
    cursor = at + chunk.oldLines.length;
  });
  for (const { at, remove, insert } of replacements.reverse()) lines.splice(at, remove, ...insert);
  return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
}

// Exact first, then forgiving trailing whitespace, then any surrounding whitespace: models often
// get indentation of blank-ish lines wrong, never the words.
const EQUALITIES: ((a: string, b: string) => boolean)[] = [(a, b) => a === b, (a, b) => a.trimEnd() === b.trimEnd(), (a, b) => a.trim() === b.trim()];

function seek(lines: string[], pattern: string[], from: number, atEnd: boolean): number {
  const lastStart = lines.length - pattern.length;
  if (lastStart < 0) return -1;
  for (const equal of EQUALITIES) {
    const matchesAt = (start: number) => pattern.every((line, offset) => equal(lines[start + offset] ?? "", line));
    if (atEnd && lastStart >= from && matchesAt(lastStart)) return lastStart;
    for (let start = from; start <= lastStart; start += 1) if (matchesAt(start)) return start;
  }
  return -1;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function existingFile(file: string, shown: string) {
  const info = await stat(file).catch(() => undefined);
  if (!info) throw new PatchConflictError(`${shown} does not exist`);
  if (!info.isFile()) throw new PatchConflictError(`${shown} is not a file`);
  return info;
}
