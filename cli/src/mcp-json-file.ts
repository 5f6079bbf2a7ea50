import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { WeftError } from "@weft/sdk";

/** A server entry as Claude Code writes it: a command with arguments, or a streamable-HTTP URL. */
export type McpServerEntry = { command: string; args: string[]; env?: Record<string, string> } | { type: "http"; url: string };

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
