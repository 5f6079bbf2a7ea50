import type { Writable } from "node:stream";
import type { ParseArgsConfig } from "node:util";

/** Where a command writes; the process streams in `main`, captured ones in tests. */
export interface CommandIO {
  stdout: Writable;
  stderr: Writable;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborted on Ctrl-C (SIGINT) for commands whose `interrupt` is "abort"; the exit code is then 130. */
  signal: AbortSignal;
}

/** One flag: its parseArgs type, the placeholder of its value in the help, and what it does. */
export interface FlagSpec {
  type: "string" | "boolean";
  short?: string;
  /** The flag may be given more than once (`--env A=1 --env B=2`); its value is then a list. */
  multiple?: true;
  /** How the value reads in the help: `<ms>`, `provider/model`. */
  value?: string;
  description: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

/** The parsed values of a command's flags: strings, booleans or lists of either, each absent when not given. */
export type FlagValues<F extends FlagSpecs> = {
  [K in keyof F]?: (F[K]["type"] extends "boolean" ? boolean : string) extends infer V ? (F[K]["multiple"] extends true ? V[] : V) : never;
};

export interface Command<F extends FlagSpecs = FlagSpecs> {
  /** The synopsis after `weft`: `call <tool> '<json>'`. */
  usage: string;
  flags: F;
  /** Command lines shown under "examples" in `weft help <command>`. */
  examples: string[];
  /**
   * What Ctrl-C does: "exit" (the default) ends the process with 130 at once; "abort" aborts
   * `io.signal` and lets the command finish cleanly (then 130); "self" leaves SIGINT to the command.
   */
  interrupt?: "exit" | "abort" | "self";
  /** Resolves to the process exit code: 0 success, 1 failure, 2 usage or an answer the run could not give. */
  run(input: { values: FlagValues<F>; positionals: string[] }, io: CommandIO): Promise<number>;
}

/** Identity with inference: the flags' types reach `run`. */
export function defineCommand<F extends FlagSpecs>(command: Command<F>): Command<F> {
  return command;
}

/** A command-line mistake: printed with the command's usage, exit code 2. */
export class UsageError extends Error {}

/** The flags of parseArgs' own shape (the help fields dropped). */
export function parseArgsOptions(flags: FlagSpecs): NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(
    Object.entries(flags).map(([name, flag]) => [name, { type: flag.type, ...(flag.short ? { short: flag.short } : {}), ...(flag.multiple ? { multiple: true } : {}) }]),
  );
}
