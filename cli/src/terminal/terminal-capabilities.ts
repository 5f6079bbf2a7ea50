import type { Writable } from "node:stream";

/** Whether `stream` is a terminal (a tty.WriteStream), judged on the stream itself, never on another one. */
export function isTerminal(stream: Writable): boolean {
  return (stream as Writable & { isTTY?: boolean }).isTTY === true;
}

/**
 * Whether live output (progress lines, spinners) may go to `stream`: a terminal, outside CI, and not a
 * `TERM=dumb` one (which cannot move the cursor). Pipes, files and logs get only the results.
 */
export function isInteractive(stream: Writable, env: NodeJS.ProcessEnv): boolean {
  return isTerminal(stream) && !env.CI && env.TERM !== "dumb";
}

/** Whether `stream` may get colors: interactive and no `NO_COLOR` (https://no-color.org: any non-empty value). */
export function useColor(stream: Writable, env: NodeJS.ProcessEnv): boolean {
  return isInteractive(stream, env) && !env.NO_COLOR;
}
