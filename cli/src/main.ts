import { parseArgs } from "node:util";
import { parseArgsOptions, UsageError, type Command, type CommandIO, type FlagSpecs, type FlagValues } from "./command.js";
import { commandHelp, overviewHelp } from "./command-help.js";
import { COMMANDS, type CommandEntry } from "./commands.js";
import { cliVersion } from "./version.js";
import type { WeftError } from "@weft/sdk";

/** Exit codes: 0 success, 1 failure, 2 a usage mistake, 130 interrupted by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** Runs `weft <argv>` and resolves to its exit code; SIGINT is handled as the command asks. */
export async function main(argv: string[], io: Omit<CommandIO, "signal">): Promise<number> {
  const [name, ...rest] = argv;
  if (name === "--version" || name === "-v") {
    io.stdout.write(`${cliVersion()}\n`);
    return 0;
  }
  if (name === undefined || name === "--help" || name === "-h" || (name === "help" && rest.length === 0)) {
    // A bare `weft` is a usage mistake; asking for help is not.
    (name ? io.stdout : io.stderr).write(overviewHelp(COMMANDS, cliVersion()));
    return name ? 0 : 2;
  }
  const wanted = name === "help" ? rest[0] : name;
  const entry = COMMANDS.find((candidate) => candidate.name === wanted);
  if (!entry) {
    io.stderr.write(`weft: unknown command "${wanted}"\n\n${overviewHelp(COMMANDS, cliVersion())}`);
    return 2;
  }
  const command = await entry.load();
  const own = rest.slice(0, rest.includes("--") ? rest.indexOf("--") : undefined);
  if (name === "help" || own.includes("--help") || own.includes("-h")) {
    io.stdout.write(commandHelp(entry, command));
    return 0;
  }
  return runCommand(entry, command, rest, io);
}

async function runCommand(entry: CommandEntry, command: Command, argv: string[], streams: Omit<CommandIO, "signal">): Promise<number> {
  const controller = new AbortController();
  const io: CommandIO = { ...streams, signal: controller.signal };
  const mode = command.interrupt ?? "exit";
  const onInterrupt = () => (mode === "abort" ? controller.abort() : process.exit(EXIT_INTERRUPTED));
  if (mode !== "self") process.on("SIGINT", onInterrupt);
  const json = argv.includes("--json") && "json" in command.flags;
  try {
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({ args: argv, options: parseArgsOptions(command.flags), allowPositionals: true, strict: true });
    } catch (error) {
      throw new UsageError(error instanceof Error ? error.message : String(error));
    }
    const code = await command.run({ values: parsed.values as FlagValues<FlagSpecs>, positionals: parsed.positionals }, io);
    return controller.signal.aborted ? EXIT_INTERRUPTED : code;
  } catch (error) {
    // The sdk is imported here, on the error path only: `weft --help` and friends start without it.
    const { isAbortError, isWeftError } = await import("@weft/sdk");
    if (controller.signal.aborted && isAbortError(error)) return EXIT_INTERRUPTED;
    return reportError(error, { entry, command, json, io, isWeftError });
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

/** Text for people (with the usage after a usage mistake), or one JSON object `{code, message}` under `--json`. */
interface ErrorReport {
  entry: CommandEntry;
  command: Command;
  json: boolean;
  io: CommandIO;
  isWeftError: (error: unknown) => error is WeftError;
}

function reportError(error: unknown, { entry, command, json, io, isWeftError }: ErrorReport): number {
  const usage = error instanceof UsageError;
  const code = usage ? "USAGE" : isWeftError(error) ? error.code : "INTERNAL";
  const message = error instanceof Error ? error.message : String(error);
  if (json) io.stdout.write(`${JSON.stringify({ code, message })}\n`);
  else if (usage) io.stderr.write(`weft ${entry.name}: ${message}\nusage: weft ${command.usage}\n(weft help ${entry.name} for the options)\n`);
  else if (isWeftError(error)) io.stderr.write(`weft: ${message}\n`);
  else io.stderr.write(`weft: unexpected error (a bug; please report it): ${error instanceof Error ? (error.stack ?? message) : message}\n`);
  return usage ? 2 : 1;
}

/** The bin's entry: the process's streams and arguments, the exit code set for when the event loop drains. */
export async function runProcess(): Promise<void> {
  // A reader that stops early (`weft tools | head`) closes the pipe: that ends the output, not in a crash.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    process.exit(process.exitCode ?? 0);
  });
  process.exitCode = await main(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, cwd: process.cwd(), env: process.env });
}
