import type { Writable } from "node:stream";

/** Where a command writes; the process streams in `main`, captured ones in tests. */
export interface CommandIO {
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Whether stdout is a terminal (progress lines and spinners only then). */
  isTTY: boolean;
}

export interface Command {
  name: string;
  /** One line for `weft help`. */
  summary: string;
  usage: string;
  /** Resolves to the process exit code. */
  run(argv: string[], io: CommandIO): Promise<number>;
}

/** A command-line mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
