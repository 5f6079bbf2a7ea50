import { existsSync } from "node:fs";
import path from "node:path";

/** Claude Code's convention: a project's MCP servers in `.mcp.json` at its root. */
export const PROJECT_MCP_JSON = ".mcp.json";

/** The project's `.mcp.json`, used when weft.config.yaml has no `mcp:` key; undefined when there is none. */
export function projectMcpJson(dir: string): string | undefined {
  const file = path.join(dir, PROJECT_MCP_JSON);
  return existsSync(file) ? file : undefined;
}
