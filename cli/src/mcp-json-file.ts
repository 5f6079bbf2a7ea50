import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { WeftError } from "@weft/sdk";
import { UsageError } from "./command.js";

/** A server entry as Claude Code writes it: a command with arguments, or a streamable-HTTP URL. */
export type McpServerEntry =
  | { command: string; args: string[]; env?: Record<string, string> }
  | { type: "http"; url: string; headers?: Record<string, string> };

/**
 * `--env KEY=VALUE` / `--header 'Name: value'` flags as the entry's map, written as given: a `${VAR}` in a
 * value stays a reference for the MCP plugin to expand when it reads the file, so no secret lands in .mcp.json.
 * A header's value loses the spaces around it (HTTP ignores them); an environment value is kept as typed.
 */
export function serverSettings(flags: string[], separator: string, flag: string, form: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const given of flags) {
    const at = given.indexOf(separator);
    const key = at > 0 ? given.slice(0, at).trim() : "";
    if (!key) throw new UsageError(`${flag} "${given}" is not ${form}`);
    const value = given.slice(at + separator.length);
    settings[key] = separator === ":" ? value.trim() : value;
  }
  return settings;
}

/** Adds `name` to the mcpServers of `file` (created when absent), keeping the rest of the file as it was. */
export async function addMcpServer(file: string, name: string, entry: McpServerEntry, replace: boolean): Promise<void> {
  let document: { mcpServers?: Record<string, unknown> } = {};
  if (existsSync(file)) {
    try {
      document = JSON.parse(await readFile(file, "utf8"));
    } catch (error) {
      throw new WeftError("CONFIG_INVALID", `${file} is not valid JSON (${(error as Error).message}); fix it before adding a server`);
    }
  }
  const servers = document.mcpServers ?? {};
  if (name in servers && !replace) throw new WeftError("CONFIG_INVALID", `${file} already has a server "${name}"; use --force to replace it`);
  await writeFile(file, `${JSON.stringify({ ...document, mcpServers: { ...servers, [name]: entry } }, null, 2)}\n`);
}
