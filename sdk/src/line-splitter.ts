/**
 * Splits a stream of text or UTF-8 bytes into lines, ending at LF, CRLF or a lone CR, the line endings
 * SSE allows. Shared by the SSE and NDJSON parsers. Built for throughput: lines are handed out as
 * (source, start, end) ranges so a caller can parse without copying, and a line split over several
 * chunks is joined once, when its end arrives, so a huge line costs O(n), not O(n²).
 */
export type LineHandler = (source: string, start: number, end: number) => void;

const LF = 10;
const CR = 13;
const STREAM = { stream: true } as const;

export class LineSplitter {
  readonly #onLine: LineHandler;
  readonly #decoder = new TextDecoder("utf-8");
  /** Pieces of a line whose end has not arrived yet. */
  #pending: string[] = [];
  /** The previous chunk ended with CR: an LF opening the next chunk belongs to that line ending. */
  #skipLf = false;

  constructor(onLine: LineHandler) {
    this.#onLine = onLine;
  }

  /** Feeds a chunk; `onLine` is called for every line it completes. */
  push(chunk: string | Uint8Array): void {
    const text = typeof chunk === "string" ? chunk : this.#decoder.decode(chunk, STREAM);
    let start = 0;
    if (this.#skipLf && text.length > 0) {
      if (text.charCodeAt(0) === LF) start = 1;
      this.#skipLf = false;
    }
    // Nearly every stream ends its lines with LF alone: one indexOf per line and nothing else. (The
    // general loop, which also tracks the next CR, measured several times slower on such input.)
    start = text.indexOf("\r", start) === -1 ? this.#splitLf(text, start) : this.#splitAny(text, start);
    if (start < text.length) this.#pending.push(start === 0 ? text : text.slice(start));
  }

  /** Ends the stream: a last line without a line ending is handed out too. */
  end(): void {
    const tail = this.#decoder.decode();
    if (tail) this.push(tail);
    if (this.#pending.length > 0) {
      const line = this.#pending.join("");
      this.#pending = [];
      this.#onLine(line, 0, line.length);
    }
  }

  /** Hands out the LF-ended lines of a chunk with no CR; returns where the unfinished rest begins. */
  #splitLf(text: string, start: number): number {
    let end = text.indexOf("\n", start);
    if (end === -1) return start;
    if (this.#pending.length > 0) {
      this.#emitJoined(text, start, end);
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    const onLine = this.#onLine;
    while (end !== -1) {
      onLine(text, start, end);
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    return start;
  }

  /** The same for a chunk with a CR in it: LF, CRLF and lone CR endings, a CR at the end waits for its LF. */
  #splitAny(text: string, start: number): number {
    const length = text.length;
    // Cached positions of the next LF and CR; -1 means none left in this chunk.
    let nextLf = text.indexOf("\n", start);
    let nextCr = text.indexOf("\r", start);
    while (start < length) {
      if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf("\n", start);
      if (nextCr !== -1 && nextCr < start) nextCr = text.indexOf("\r", start);
      const end = nextCr === -1 ? nextLf : nextLf === -1 ? nextCr : Math.min(nextLf, nextCr);
      if (end === -1) return start;
      if (this.#pending.length > 0) this.#emitJoined(text, start, end);
      else this.#onLine(text, start, end);
      if (text.charCodeAt(end) === CR) {
        if (end + 1 === length) {
          this.#skipLf = true;
          return length;
        }
        start = text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      } else {
        start = end + 1;
      }
    }
    return start;
  }

  /** The first line a chunk ends, whose beginning came in earlier chunks. */
  #emitJoined(text: string, start: number, end: number): void {
    this.#pending.push(text.slice(start, end));
    const line = this.#pending.join("");
    this.#pending = [];
    this.#onLine(line, 0, line.length);
  }
}
