/**
 * The `*** Begin Patch` format (Codex's apply_patch): a patch adds, updates (and optionally moves) and
 * deletes files; an update is a list of chunks of context (` `), removed (`-`) and added (`+`) lines,
 * each optionally anchored by an `@@ <line>` header naming a line somewhere above it.
 */
export type PatchOperation =
  | { kind: "add"; path: string; content: string }
  | { kind: "delete"; path: string }
  | { kind: "update"; path: string; moveTo?: string; chunks: PatchChunk[] };

export interface PatchChunk {
  /** The text after `@@`: a line to find first; the chunk applies below it. */
  anchor?: string;
  /** Context and removed lines: what the file holds now. */
  oldLines: string[];
  /** Context and added lines: what it holds afterwards. */
  newLines: string[];
  /** `*** End of File` followed the chunk: it must match at the end of the file. */
  atEndOfFile: boolean;
}

/** A patch that does not follow the format; the message names the line. */
export class PatchSyntaxError extends Error {}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const END_OF_FILE = "*** End of File";

export function parsePatch(text: string): PatchOperation[] {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  // Every index read below is in range; the fallback only satisfies the type.
  const lineAt = (index: number): string => lines[index] ?? "";
  // Surrounding blank lines are forgiven; the markers themselves are not.
  while (lines.length > 0 && lineAt(0).trim() === "") lines.shift();
  while (lines.length > 0 && lineAt(lines.length - 1).trim() === "") lines.pop();
  if (lines[0]?.trim() !== BEGIN) throw new PatchSyntaxError(`the first line must be "${BEGIN}"`);
  if (lines.length < 2 || lineAt(lines.length - 1).trim() !== END) throw new PatchSyntaxError(`the last line must be "${END}"`);
  const operations: PatchOperation[] = [];
  let at = 1;
  const last = lines.length - 1;
  const where = () => `line ${at + 1}`;
  while (at < last) {
    const line = lineAt(at);
    if (line.startsWith(ADD)) {
      const path = fileName(line.slice(ADD.length), where());
      at += 1;
      const body: string[] = [];
      while (at < last && !lineAt(at).startsWith("*** ")) {
        if (!lineAt(at).startsWith("+")) throw new PatchSyntaxError(`${where()}: every line of an added file starts with "+" (in ${path})`);
        body.push(lineAt(at).slice(1));
        at += 1;
      }
      operations.push({ kind: "add", path, content: body.length === 0 ? "" : `${body.join("\n")}\n` });
    } else if (line.startsWith(DELETE)) {
      operations.push({ kind: "delete", path: fileName(line.slice(DELETE.length), where()) });
      at += 1;
    } else if (line.startsWith(UPDATE)) {
      const path = fileName(line.slice(UPDATE.length), where());
      at += 1;
      let moveTo: string | undefined;
      if (at < last && lineAt(at).startsWith(MOVE)) {
        moveTo = fileName(lineAt(at).slice(MOVE.length), where());
        at += 1;
      }
      const chunks: PatchChunk[] = [];
      while (at < last && !lineAt(at).startsWith("*** ")) {
        let anchor: string | undefined;
        if (lineAt(at).startsWith("@@")) {
          anchor = lineAt(at).slice(2).trim() || undefined;
          at += 1;
        } else if (chunks.length > 0) {
          throw new PatchSyntaxError(`${where()}: expected "@@" to start the next chunk of ${path}`);
        }
        const chunk: PatchChunk = { anchor, oldLines: [], newLines: [], atEndOfFile: false };
        while (at < last && !lineAt(at).startsWith("@@") && !(lineAt(at).startsWith("*** ") && lineAt(at) !== END_OF_FILE)) {
          const row = lineAt(at);
          if (row === END_OF_FILE) {
            chunk.atEndOfFile = true;
            at += 1;
            break;
          }
          const marker = row[0];
          // An empty line is an empty context line: editors strip the lone space.
          if (row === "" || marker === " ") {
            chunk.oldLines.push(row.slice(1));
            chunk.newLines.push(row.slice(1));
          } else if (marker === "-") {
            chunk.oldLines.push(row.slice(1));
          } else if (marker === "+") {
            chunk.newLines.push(row.slice(1));
          } else {
            throw new PatchSyntaxError(`${where()}: a chunk line starts with " ", "-" or "+", got ${JSON.stringify(row)} (in ${path})`);
          }
          at += 1;
        }
        if (chunk.oldLines.length === 0 && chunk.newLines.length === 0) throw new PatchSyntaxError(`${where()}: empty chunk in ${path}`);
        chunks.push(chunk);
      }
      if (chunks.length === 0 && moveTo === undefined) throw new PatchSyntaxError(`${where()}: "${UPDATE}${path}" has no chunks`);
      operations.push({ kind: "update", path, moveTo, chunks });
    } else {
      throw new PatchSyntaxError(`${where()}: expected "${ADD}", "${UPDATE}", "${DELETE}" or "${END}", got ${JSON.stringify(line)}`);
    }
  }
  if (operations.length === 0) throw new PatchSyntaxError("the patch changes no file");
  return operations;
}

function fileName(raw: string, where: string): string {
  const name = raw.trim();
  if (name === "") throw new PatchSyntaxError(`${where}: a file path is missing`);
  return name;
}
