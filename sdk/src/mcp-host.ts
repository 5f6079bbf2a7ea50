/**
 * The service @weft/plugin-mcp publishes (`api.provide("mcp", host)`), so packs backed by an MCP server
 * (web, coding, third-party ones) start it through the one MCP bridge instead of importing it.
 */

/** One server entry of mcp.json, in the common (Claude Desktop / Cursor) format. */
export interface McpServerConfig {
  /** stdio: the program, run without a shell. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** remote: `http` (Streamable HTTP, falling back to SSE) or `sse`. */
  type?: "stdio" | "http" | "sse";
  url?: string;
  headers?: Record<string, string>;
  enabled?: boolean;
  disabled?: boolean;
  /** Connect and list time limit in ms (default 30 s). */
  timeout?: number;
  /** One call's ceiling in ms (default 2 min). */
  toolTimeout?: number;
  /** Allowlist (names) or drop-list (`!name`) of the server's own tool names. */
  tools?: string[];
  /** Extra environment variables to pass to a stdio server. */
  inheritEnv?: string[];
}

export type McpServerState = "connected" | "starting" | "stopped" | "failed" | "disabled";

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  tools: number;
  error?: string;
}

export interface McpServerHandle {
  readonly name: string;
  /** Exposed (prefixed, sanitized) names of the tools this server registered. */
  toolNames(): string[];
  status(): McpServerStatus;
  /** Stops the server and removes its tools. */
  close(): Promise<void>;
}

export interface McpHost {
  /** Starts one server and registers its tools as `<name>__<tool>`; resolves once they are listed. */
  addServer(name: string, config: McpServerConfig, options?: { signal?: AbortSignal }): Promise<McpServerHandle>;
  status(): McpServerStatus[];
}
