import { createInterface, type Interface } from "node:readline";
import type { Readable, Writable } from "node:stream";

/**
 * Lines from stdin, one question at a time, for the chat loop and the answers to suspensions alike.
 * Lines typed ahead (or piped in) wait in order; `ask` resolves undefined at end of input.
 */
export class LineReader {
  readonly #readline: Interface;
  readonly #lines: string[] = [];
  readonly #waiting: ((line: string | undefined) => void)[] = [];
  #ended = false;

  constructor(input: Readable, private readonly output: Writable, terminal: boolean) {
    this.#readline = createInterface({ input, output: terminal ? output : undefined, terminal });
    this.#readline.on("line", (line) => {
      const waiter = this.#waiting.shift();
      if (waiter) waiter(line);
      else this.#lines.push(line);
    });
    this.#readline.on("close", () => {
      this.#ended = true;
      for (const waiter of this.#waiting.splice(0)) waiter(undefined);
    });
  }

  /** Ctrl-C on a terminal (readline takes it from the process while it reads). */
  onInterrupt(handler: () => void): void {
    this.#readline.on("SIGINT", handler);
  }

  ask(prompt: string, signal?: AbortSignal): Promise<string | undefined> {
    this.output.write(prompt);
    const queued = this.#lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    if (this.#ended) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const waiter = (line: string | undefined) => {
        signal?.removeEventListener("abort", onAbort);
        resolve(line);
      };
      const onAbort = () => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#waiting.push(waiter);
    });
  }

  close(): void {
    this.#readline.close();
  }
}
