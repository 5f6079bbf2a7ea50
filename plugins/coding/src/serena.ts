import type { McpServerConfig } from "@weft/sdk";

/** Above Serena's own 240-second limit, so Serena reports its timeouts itself. */
export const SERENA_TOOL_TIMEOUT_MS = 360_000;
/** The first start fetches and builds Serena with uvx, which takes minutes. */
const SERENA_START_TIMEOUT_MS = 600_000;
export const SERENA_SERVER_NAME = "serena";
export const SERENA_FROM = "git+https://github.com/oraios/serena";

/**
 * How the pack starts Serena: `uvx --from <from> serena start-mcp-server ...`. A fresh value each call,
 * so an operator can pin `--from` to a tag (`git+https://github.com/oraios/serena@v0.1.4`).
 */
export function serenaMcpConfig(from = SERENA_FROM): McpServerConfig {
  return {
    command: "uvx",
    args: ["--from", from, "serena", "start-mcp-server", "--context", "desktop-app", "--add-mode", "query-projects"],
    toolTimeout: SERENA_TOOL_TIMEOUT_MS,
    timeout: SERENA_START_TIMEOUT_MS,
  };
}
