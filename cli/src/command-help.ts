import type { Command } from "./command.js";
import type { CommandEntry } from "./commands.js";

/** `weft help`: every command with its summary. */
export function overviewHelp(commands: readonly CommandEntry[], version: string): string {
  const width = Math.max(...commands.map((entry) => entry.name.length));
  const lines = commands.map((entry) => `  ${entry.name.padEnd(width)}  ${entry.summary}`);
  return `weft ${version}\n\nusage: weft <command> [options]\n\ncommands:\n${lines.join("\n")}\n\noptions:\n  --version  print the version\n  --help     this help; weft help <command> (or weft <command> --help) shows a command's usage\n`;
}

/** `weft help <command>`: its synopsis, summary, flags and examples. */
export function commandHelp(entry: CommandEntry, command: Command): string {
  const flags = Object.entries(command.flags).map(([name, flag]) => {
    const short = flag.short ? `-${flag.short}, ` : "";
    return [`${short}--${name}${flag.value ? ` ${flag.value}` : ""}`, flag.description];
  });
  flags.push(["--help", "this help"]);
  const width = Math.max(...flags.map(([left = ""]) => left.length));
  return [
    `usage: weft ${command.usage}`,
    "",
    entry.summary,
    "",
    "options:",
    ...flags.map(([left = "", right = ""]) => `  ${left.padEnd(width)}  ${right}`),
    "",
    "examples:",
    ...command.examples.map((example) => `  ${example}`),
    "",
  ].join("\n");
}
