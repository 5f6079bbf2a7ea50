/**
 * The last lines of a stream, capped in count and in length per line, so a server that floods stderr
 * costs a fixed amount of memory while its last words stay available for a failure report.
 */
export class LineTail {
  readonly #lines: string[] = [];
  #partial = "";

  constructor(
    private readonly maxLines = 20,
    private readonly maxLineLength = 500,
  ) {}

  /** Feeds a chunk; returns the lines it completed (each capped), for whoever logs them. */
  push(chunk: string): string[] {
    const parts = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = this.#cap(parts.pop() ?? "");
    const complete = parts.map((line) => this.#cap(line));
    for (const line of complete) this.#keep(line);
    return complete;
  }

  /** The kept lines, oldest first, with an unfinished last line if there is one. */
  lines(): string[] {
    return this.#partial ? [...this.#lines, this.#partial] : [...this.#lines];
  }

  #keep(line: string): void {
    this.#lines.push(line);
    if (this.#lines.length > this.maxLines) this.#lines.shift();
  }

  #cap(line: string): string {
    return line.length > this.maxLineLength ? `${line.slice(0, this.maxLineLength)}…` : line;
  }
}
