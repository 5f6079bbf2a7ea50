import { LineSplitter } from "./line-splitter.js";

/** Parses one line; the default is `JSON.parse`. A provider passes one that throws its own typed error. */
export type LineParser<T> = (line: string) => T;

/**
 * Incremental NDJSON parser: feed it byte or text chunks, get one parsed value per non-blank line.
 * LF and CRLF line endings are accepted; a last line without a newline is parsed at `end()`.
 */
export class NdjsonParser<T = unknown> {
  readonly #lines: LineSplitter;
  readonly #parse: LineParser<T>;
  #values: T[] = [];

  constructor(parse: LineParser<T> = JSON.parse as LineParser<T>) {
    this.#parse = parse;
    this.#lines = new LineSplitter((source, start, end) => {
      // Skip blank lines (keep-alives) without slicing them.
      let first = start;
      while (first < end && isBlank(source.charCodeAt(first))) first++;
      if (first < end) this.#values.push(this.#parse(source.slice(first, end)));
    });
  }

  /** Feeds a chunk and returns the values of the lines it completed (often none). */
  push(chunk: string | Uint8Array): readonly T[] {
    this.#lines.push(chunk);
    return this.#take();
  }

  /** Ends the stream and returns the value of a last line without a newline. */
  end(): readonly T[] {
    this.#lines.end();
    return this.#take();
  }

  #take(): readonly T[] {
    if (this.#values.length === 0) return [];
    const values = this.#values;
    this.#values = [];
    return values;
  }
}

function isBlank(code: number): boolean {
  return code === 32 || code === 9;
}

/** The parsed lines of a byte stream, as they complete. */
export async function* ndjsonValues<T = unknown>(chunks: AsyncIterable<Uint8Array | string>, parse?: LineParser<T>): AsyncGenerator<T> {
  const parser = new NdjsonParser<T>(parse);
  // A loop, not `yield*` over the arrays: that wraps each in an async iterator, twice the cost a value.
  for await (const chunk of chunks) for (const value of parser.push(chunk)) yield value;
  for (const value of parser.end()) yield value;
}
