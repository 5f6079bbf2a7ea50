import { consoleFeedback, type AgentEvent } from "@weft/core";
import type { CommandIO } from "../command.js";
import { Spinner } from "./spinner.js";
import { isInteractive } from "./terminal-capabilities.js";

/** Events shown as a line of their own; the rest are either streamed text or noise for a terminal. */
const LINE_EVENTS = new Set(["tool.called", "tool.returned", "tool.repeated", "tool.pending", "compaction.finished", "compaction.failed", "mcp.status", "mcp.tools-changed"]);

/**
 * How `weft run` and `weft chat` show a turn: the answer streams to stdout, a line per tool call and
 * per MCP server change goes to stderr, and a spinner runs while the model thinks (terminals only).
 */
export function textRenderer(io: CommandIO): { render(event: AgentEvent): void; finish(): void } {
  const spinner = isInteractive(io.stderr, io.env) ? new Spinner(io.stderr) : undefined;
  let atLineStart = true;
  const line = consoleFeedback({
    write: (text) => {
      spinner?.stop();
      if (!atLineStart) io.stdout.write("\n");
      atLineStart = true;
      io.stderr.write(`· ${text}\n`);
    },
  });
  return {
    render(event) {
      if (event.type === "model.request") spinner?.start("thinking");
      else if (event.type === "text.delta") {
        spinner?.stop();
        io.stdout.write(event.delta);
        atLineStart = event.delta.endsWith("\n");
      } else if (event.type !== "response" && LINE_EVENTS.has(event.type)) line(event);
    },
    finish() {
      spinner?.stop();
      if (!atLineStart) io.stdout.write("\n");
      atLineStart = true;
    },
  };
}

/** `--json`: every event as one JSON line on stdout. */
export function jsonRenderer(io: CommandIO): { render(event: AgentEvent): void; finish(): void } {
  return { render: (event) => void io.stdout.write(`${JSON.stringify(event)}\n`), finish() {} };
}
