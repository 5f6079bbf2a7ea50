import type { FileHandle } from "node:fs/promises";
import { defineTool, errorMessage, errorResult, escapeXmlAttribute, type ConfinedRoot, Type } from "@weft/sdk";
import { isBinaryFile } from "./binary-file.js";
import { fileFailure } from "./file-failure.js";
import { loadPicomatch } from "./load-picomatch.js";
import { readLines } from "./line-reader.js";
import { MAX_READ_BYTES } from "./file-read.js";
import { walkFiles } from "./tree-walk.js";

const DEFAULT_SEARCH_LIMIT = 100;
/** A matching line is cut to this many bytes (minified files have lines of megabytes). */
const MAX_MATCH_LINE_BYTES = 500;

const input = Type.Object({
  pattern: Type.String(),
  path: Type.Optional(Type.String({ description: "Root-relative folder or file; default: the root" })),
  glob: Type.Optional(Type.String({ description: 'e.g. "*.ts" or "src/**/*.md"' })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
});

/** Regex search over the text files under a folder, one `<match>` per matching line. */
export function searchTool(root: ConfinedRoot, name: string) {
  return defineTool({
    name,
    description:
      `Search text files for a JavaScript regex, line by line; at most limit (default ${DEFAULT_SEARCH_LIMIT}) matching lines. ` +
      `Skips binary files, .git and node_modules; cuts lines at ${MAX_MATCH_LINE_BYTES} bytes.`,
    input,
    annotations: { readOnlyHint: true },
    async execute({ pattern, path: requested = "", glob, limit = DEFAULT_SEARCH_LIMIT }, ctx) {
      let regex: RegExp;
      try {
        regex = new RegExp(pattern);
      } catch (error) {
        return errorResult(`invalid pattern: ${errorMessage(error)}`);
      }
      const wanted = glob === undefined ? () => true : await globMatcher(glob);
      const matches: string[] = [];
      const files = new Set<string>();
      let truncated = false;
      try {
        const start = await root.resolve(requested);
        search: for await (const file of walkFiles(root, start, ctx.signal)) {
          if (!wanted(file.relative)) continue;
          const { handle } = await root.openFile(file.relative);
          try {
            if (await isBinaryFile(handle)) continue;
            for await (const [line, text] of matchingLines(handle, regex, ctx.signal)) {
              if (matches.length === limit) {
                truncated = true;
                break search;
              }
              matches.push(`<match path="${escapeXmlAttribute(file.relative)}" line="${line}">${cut(text)}</match>`);
              files.add(file.relative);
            }
          } finally {
            await handle.close();
          }
        }
      } catch (error) {
        return fileFailure(error, requested === "" ? "the root" : requested);
      }
      const open = `<search matches="${matches.length}" files="${files.size}"${truncated ? ' truncated="true"' : ""}>`;
      return { output: [open, ...matches, "</search>"].join("\n") };
    },
  });
}

/** A glob test on root-relative paths; a glob without `/` matches the file name at any depth. */
async function globMatcher(glob: string): Promise<(relative: string) => boolean> {
  return (await loadPicomatch())(glob, { dot: true, basename: !glob.includes("/") });
}

// A line is tested in its first MiB: memory stays bounded on a file that is one huge line.
async function* matchingLines(handle: FileHandle, regex: RegExp, signal: AbortSignal): AsyncGenerator<[number, string]> {
  let line = 0;
  for await (const { text } of readLines(handle, MAX_READ_BYTES, signal)) {
    line += 1;
    if (regex.test(text)) yield [line, text];
  }
}

function cut(text: string): string {
  const bytes = Buffer.from(text);
  return bytes.length <= MAX_MATCH_LINE_BYTES ? text : `${bytes.subarray(0, MAX_MATCH_LINE_BYTES).toString("utf8")}…`;
}
