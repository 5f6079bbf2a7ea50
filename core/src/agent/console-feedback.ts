import type { FeedbackEvent, ToolProgress } from "@weft/sdk";

export interface ConsoleFeedbackOptions {
  /** Where each line goes (default: stderr, so the host's own output stays clean on stdout). */
  write?: (line: string) => void;
  /** Longest excerpt of arguments, results and text (default 160 characters). */
  maxExcerpt?: number;
}

/**
 * An observer that prints one readable line per event: `kernel.hooks.feedback.tap(consoleFeedback())`.
 * Streamed deltas are left to the host's UI (a line each would be noise); everything else is shown.
 */
export function consoleFeedback(options: ConsoleFeedbackOptions = {}): (event: FeedbackEvent) => void {
  const write = options.write ?? ((line: string) => void process.stderr.write(`${line}\n`));
  const limit = options.maxExcerpt ?? 160;
  const excerpt = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
  };
  return (event) => {
    const line = describe(event, excerpt);
    if (line !== undefined) write(line);
  };
}

function describe(event: FeedbackEvent, excerpt: (text: string) => string): string | undefined {
  switch (event.type) {
    case "session.started":
    case "session.reset":
    case "session.closed":
      return `session ${event.sessionId} ${event.type.slice("session.".length)}`;
    case "model.request":
      return `model ${event.model} ← ${plural(event.messages, "message")}, ${plural(event.tools, "tool")}`;
    case "model.response":
      return `model ${event.model} → ${event.stats.promptTokens} prompt + ${event.stats.outputTokens} output tokens in ${seconds(event.durationMs)}${event.stopReason ? ` (${event.stopReason})` : ""}`;
    case "model.info-unavailable":
      return `model ${event.model}: context window unknown (${excerpt(event.reason)})`;
    case "text.delta":
    case "reasoning.delta":
    case "output.partial":
      return undefined;
    case "text.interim":
      return `assistant: ${excerpt(event.text)}`;
    case "tool.called":
      return `tool ${event.name} ${excerpt(JSON.stringify(event.arguments))}`;
    case "tool.progress":
      return `tool ${event.name} ${progress(event.progress)}`;
    case "tool.returned":
      return `tool ${event.name} ${event.isError ? "failed" : "returned"} in ${Math.round(event.elapsedMs)} ms: ${excerpt(event.result.output)}`;
    case "tool.repeated":
      return `tool ${event.name} called ${event.count} times in a row with the same arguments`;
    case "tool.pending":
      return `tool ${event.suspension.toolName} waits for the user (${event.suspension.kind}): ${excerpt(event.suspension.message)}`;
    case "compaction.started":
      return `compaction started: ~${event.estimatedTokens} tokens, threshold ${event.thresholdTokens}`;
    case "compaction.finished":
      return `compaction finished: ~${event.before} → ~${event.after} tokens`;
    case "compaction.failed":
      return `compaction failed: ${excerpt(event.reason)}`;
    case "compaction.skipped":
      return `compaction skipped: ${excerpt(event.reason)}`;
    case "turn.finished": {
      const { metadata } = event;
      return `turn ${event.status}: ${plural(metadata.iterations, "iteration")}, ${plural(metadata.toolCalls, "tool call")}, ${metadata.usage.totalTokens} tokens, ${seconds(metadata.timings.totalMs)}`;
    }
    case "mcp.status":
      return `mcp ${event.server} ${event.state}${event.tools !== undefined ? ` (${plural(event.tools, "tool")})` : ""}${event.error ? `: ${excerpt(event.error)}` : ""}`;
    case "mcp.tools-changed":
      return `mcp ${event.server} tools changed: ${[...event.added.map((name) => `+${name}`), ...event.removed.map((name) => `-${name}`)].join(" ")}`;
    default: {
      // Events plugins declare for themselves: the type and the payload.
      const { type, ...payload } = event as { type: string };
      return `${type} ${excerpt(JSON.stringify(payload))}`;
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function progress(value: ToolProgress): string {
  const amount = value.total !== undefined ? `${value.progress}/${value.total}` : `${value.progress}`;
  return `progress ${amount}${value.message ? `: ${value.message}` : ""}`;
}
