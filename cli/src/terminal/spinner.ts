import type { Writable } from "node:stream";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** A one-line spinner on a terminal; `stop()` clears it so the next output starts on a clean line. */
export class Spinner {
  #timer: NodeJS.Timeout | undefined;
  #frame = 0;

  constructor(private readonly out: Writable) {}

  start(label: string): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.out.write(`\r${FRAMES[this.#frame++ % FRAMES.length]} ${label}`), 80);
    this.#timer.unref();
  }

  stop(): void {
    if (!this.#timer) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.out.write("\r\x1b[2K");
  }
}
