#!/usr/bin/env node
import { isWeftError } from "@weft/sdk";
import { UsageError, type CommandIO } from "./command.js";
import { COMMANDS } from "./commands.js";

function help(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  const lines = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`);
  return `usage: weft <command> [options]\n\ncommands:\n${lines.join("\n")}\n\nweft <command> --help shows a command's usage.\n`;
}

export async function main(argv: string[], io: CommandIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`weft: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    io.stdout.write(`usage: ${command.usage}\n${command.summary}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`weft ${command.name}: ${error.message}\nusage: ${command.usage}\n`);
      return 2;
    }
    if (isWeftError(error)) {
      io.stderr.write(`weft: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

const exitCode = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stdout.isTTY === true,
});
process.exitCode = exitCode;
