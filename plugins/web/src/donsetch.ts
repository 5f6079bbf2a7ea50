import { WeftError, droppedServerTools, errorMessage, findExecutable, type McpServerConfig, type McpServerHandle, type PluginApi } from "@weft/sdk";

/** DonSeTch's own calls (crawls, browser escalation) can take long; this is one call's ceiling. */
export const DONSETCH_TOOL_TIMEOUT_MS = 15 * 60_000;
const DONSETCH_SERVER_NAME = "donsetch";

/** How the pack starts DonSeTch as an MCP server; a fresh value each call, for a caller to adjust. */
export function donsetchMcpConfig(): McpServerConfig {
  return { command: "donsetch", args: ["mcp"], toolTimeout: DONSETCH_TOOL_TIMEOUT_MS };
}

export interface DonsetchChoice {
  /** `auto` falls back to the native tools (with a warning) where `donsetch` insists. */
  backend: "auto" | "donsetch";
  /** Fields merged over `donsetchMcpConfig()`. */
  server?: Partial<McpServerConfig>;
  /** The pack's drop map; `donsetch__<tool>: false` keeps that tool of the server out. */
  tools?: Record<string, boolean>;
}

/**
 * Starts DonSeTch through the MCP plugin's host, which registers its tools as `donsetch__<tool>`.
 * Undefined when the native tools should serve instead (auto, and DonSeTch unavailable).
 */
export async function startDonsetch(api: PluginApi, choice: DonsetchChoice): Promise<McpServerHandle | undefined> {
  const config: McpServerConfig = { ...donsetchMcpConfig(), ...choice.server };
  const dropped = droppedServerTools(DONSETCH_SERVER_NAME, choice.tools);
  if (dropped.length > 0) config.tools = [...(config.tools ?? []), ...dropped];
  const command = config.command ?? "donsetch";
  const executable = findExecutable(command);
  if (!executable) {
    if (choice.backend === "auto") return undefined;
    throw new WeftError("PLUGIN_SETUP_FAILED", `${api.name}: backend "donsetch" needs the ${command} executable on PATH; install it (npm install -g donsetch) or set backend: native`);
  }
  if (!api.has("mcp")) {
    if (choice.backend === "donsetch") api.need("mcp");
    api.logger.warn(
      `${api.name}: ${command} is on PATH (${executable}) but @weft/plugin-mcp is not enabled, so the native web tools are used; ` +
        "enable mcp before web (plugins: [mcp, web]) to search and fetch through DonSeTch, or set backend: native",
    );
    return undefined;
  }
  try {
    return await api.need("mcp").addServer(DONSETCH_SERVER_NAME, config);
  } catch (error) {
    if (choice.backend === "donsetch") throw error;
    api.logger.warn(`${api.name}: DonSeTch did not start (${errorMessage(error)}), so the native web tools are used`);
    return undefined;
  }
}
