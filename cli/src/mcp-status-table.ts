import type { McpServerStatus } from "@weft/sdk";
import { formatTable } from "./table.js";

/** The MCP servers as `weft mcp` and chat's `/mcp` show them: one row each, the failure reason last. */
export function mcpStatusTable(statuses: McpServerStatus[]): string {
  if (statuses.length === 0) return "no MCP servers configured (mcp: in weft.config.yaml)";
  const rows = statuses.map((status) => [status.name, status.state, String(status.tools), status.error ?? ""]);
  return formatTable([["SERVER", "STATE", "TOOLS", "ERROR"], ...rows]);
}
