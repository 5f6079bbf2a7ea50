import type { FileHandle } from "node:fs/promises";
import { defineTool, errorResult, type ConfinedRoot, Type } from "@weft/sdk";
import { isBinaryFile } from "./binary-file.js";
import { mediaFileResult, sniffMedia } from "./media-file.js";
import { fileFailure } from "./file-failure.js";
import { readLines } from "./line-reader.js";

const DEFAULT_READ_LINES = 2000;
export const MAX_READ_BYTES = 1024 * 1024;

const input = Type.Object({
  path: Type.String({ description: "Root-relative" }),
  offset: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Reads a text file a page at a time: at most `limit` lines and 1 MiB, whichever comes first. */
export function readTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description:
      `Read a text file, at most ${DEFAULT_READ_LINES} lines and 1 MiB a call; page with offset (first line) and limit. ` +
      "Also reads PNG, JPEG, GIF, WebP and PDF files.",
    input,
    annotations: { readOnlyHint: true },
    async execute({ path: requested, offset = 1, limit = DEFAULT_READ_LINES }, ctx) {
      try {
        const { handle, path: file } = await root.openFile(requested);
        let page: { lines: string[]; total: number };
        try {
          // By its bytes, before the binary check: a PDF need not hold a NUL byte.
          const mediaType = await sniffMedia(handle);
          if (mediaType) return await mediaFileResult(handle, requested, mediaType, file);
          if (await isBinaryFile(handle)) return errorResult(`${requested} is a binary file; only text files, images (PNG, JPEG, GIF, WebP) and PDFs can be read`);
          page = await readPage(handle, offset, limit, ctx.signal);
        } finally {
          await handle.close();
        }
        if (page.total > 0 && offset > page.total) {
          return errorResult(`offset ${offset} is past the end of ${requested} (${page.total} lines)`);
        }
        const first = page.lines.length === 0 ? 0 : offset;
        const last = page.lines.length === 0 ? 0 : offset + page.lines.length - 1;
        const body = page.lines.map((line) => `${line}\n`).join("");
        return { output: `<file lines="${first}-${last} of ${page.total}">\n${body}</file>`, metadata: { path: file, totalLines: page.total } };
      } catch (error) {
        return fileFailure(error, requested);
      }
    },
  });
}

/** The lines from `offset` on, within the line and byte budgets, and the file's total line count. */
async function readPage(handle: FileHandle, offset: number, limit: number, signal: AbortSignal): Promise<{ lines: string[]; total: number }> {
  const lines: string[] = [];
  let total = 0;
  let bytes = 0;
  let full = false;
  // A single line past the budget is cut rather than skipped, so paging always moves forward.
  for await (const { text: line } of readLines(handle, MAX_READ_BYTES - 1, signal)) {
    total += 1;
    if (full || total < offset) continue;
    const size = Buffer.byteLength(line) + 1;
    if (lines.length === limit || (lines.length > 0 && bytes + size > MAX_READ_BYTES)) {
      full = true;
      continue;
    }
    lines.push(line);
    bytes += size;
  }
  return { lines, total };
}
