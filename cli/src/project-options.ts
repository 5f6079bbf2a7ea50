import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./command.js";

/** Parses a command's flags; `--config <file>` is shared by every command that loads a project. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { config: { type: "string" }, ...options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
