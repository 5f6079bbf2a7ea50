import type { FeedbackEvent } from "@weft/sdk";
import type { CommandIO } from "../command.js";
import { isInteractive, useColor } from "./terminal-capabilities.js";

/**
 * A line on stderr per MCP server as it starts (starting, connected with N tools, failed and why), so
 * a slow server is visible while a command loads the project. Only on an interactive terminal; dimmed
 * unless NO_COLOR. Returns undefined elsewhere, so nothing is even subscribed.
 */
export function mcpProgress(io: Pick<CommandIO, "stderr" | "env">): ((event: FeedbackEvent) => void) | undefined {
  if (!isInteractive(io.stderr, io.env)) return undefined;
  const dim = useColor(io.stderr, io.env) ? (text: string) => `\x1b[2m${text}\x1b[22m` : (text: string) => text;
  return (event) => {
    if (event.type !== "mcp.status") return;
    const detail = event.state === "connected" ? ` (${event.tools ?? 0} tools)` : event.error ? `: ${event.error}` : "";
    io.stderr.write(`${dim(`mcp ${event.server}: ${event.state}${detail}`)}\n`);
  };
}
