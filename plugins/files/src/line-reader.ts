import type { FileHandle } from "node:fs/promises";

export interface FileLine {
  text: string;
  /** Whether the line was longer than the cap and only its beginning is in `text`. */
  cut: boolean;
}

const CHUNK_BYTES = 64 * 1024;

/**
 * The lines of an open file (split at `\n`, a `\r` before it dropped), each kept to at most
 * `maxLineBytes`: the rest of a longer line is read and dropped, so memory stays bounded by the cap
 * whatever the file holds (a 200 MiB minified line costs one cap, not 200 MiB).
 */
export async function* readLines(handle: FileHandle, maxLineBytes: number, signal?: AbortSignal): AsyncGenerator<FileLine> {
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let parts: Buffer[] = [];
  let kept = 0;
  let cut = false;
  let position = 0;
  const keep = (bytes: Buffer) => {
    const room = maxLineBytes - kept;
    if (bytes.length > room) cut = true;
    const piece = bytes.subarray(0, Math.max(0, room));
    if (piece.length > 0) {
      // Copied: the read buffer is reused for the next chunk.
      parts.push(Buffer.from(piece));
      kept += piece.length;
    }
  };
  const take = (): FileLine => {
    let line = Buffer.concat(parts);
    if (line.at(-1) === 0x0d && !cut) line = line.subarray(0, -1);
    const result = { text: line.toString("utf8"), cut };
    parts = [];
    kept = 0;
    cut = false;
    return result;
  };
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let start = 0;
    for (let newline = buffer.indexOf(0x0a, start); newline >= 0 && newline < bytesRead; newline = buffer.indexOf(0x0a, start)) {
      keep(buffer.subarray(start, newline));
      yield take();
      start = newline + 1;
    }
    keep(buffer.subarray(start, bytesRead));
  }
  if (kept > 0 || cut) yield take();
}
