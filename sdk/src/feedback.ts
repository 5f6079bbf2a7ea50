import type { CompactionStageReport } from "./hooks.js";
import type { Stats } from "./message.js";
import type { ToolProgress, ToolResult, Suspension } from "./tool.js";

/** What one `agent.process` turn cost and how it ended. */
export interface TurnMetadata {
  iterations: number;
  toolCalls: number;
  /** Tokens summed over every model call of the turn. */
  usage: Stats;
  /** Tokens of the final model call alone. */
  finalUsage: Stats;
  stopReason?: string;
  timings: { modelMs: number; toolMs: number; totalMs: number };
}

/**
 * Every event the kernel and its plugins report, by type. Plugins add their own with declaration
 * merging: `declare module "@weft/sdk" { interface FeedbackEventMap { "x.y": { ... } } }`.
 */
export interface FeedbackEventMap {
  "session.started": { sessionId: string };
  "session.reset": { sessionId: string };
  "session.closed": { sessionId: string };
  /** `purpose: "summary"` for a compaction's summary call; absent for the turn's own calls. */
  "model.request": { model: string; messages: number; tools: number; purpose?: "summary" };
  "model.response": { model: string; stats: Stats; durationMs: number; stopReason?: string; purpose?: "summary" };
  "model.info-unavailable": { model: string; reason: string };
  /** The provider shaped a request to what the model accepts (thinking dropped, an image replaced...). */
  "model.notice": { model: string; code: string; message: string };
  "text.delta": { delta: string };
  "reasoning.delta": { delta: string };
  /** With a typed answer asked for: the object as far as the model's JSON has come. */
  "output.partial": { partial: Record<string, unknown> };
  /** Text the model wrote alongside tool calls. */
  "text.interim": { text: string };
  "tool.called": { callId: string; name: string; arguments: Record<string, unknown> };
  "tool.progress": { callId: string; name: string; progress: ToolProgress };
  "tool.returned": { callId: string; name: string; result: ToolResult; isError: boolean; elapsedMs: number };
  "tool.repeated": { callId: string; name: string; arguments: Record<string, unknown>; count: number };
  "tool.pending": { suspension: Suspension };
  "compaction.started": { estimatedTokens: number; thresholdTokens: number; targetTokens: number };
  /** `stages`: what each stage removed, and the summary call's own usage. */
  "compaction.finished": { before: number; after: number; stages: CompactionStageReport[] };
  "compaction.failed": { reason: string };
  "compaction.skipped": { reason: string };
  "turn.finished": { metadata: TurnMetadata; status: "done" | "pending" | "incomplete" | "limit" | "aborted" };
  /** `protocol`: the MCP protocol version negotiated with a connected server (2026-07-28, or a 2025-era one). */
  "mcp.status": { server: string; state: "starting" | "connected" | "reconnecting" | "stopped" | "failed" | "disabled"; tools?: number; error?: string; protocol?: string };
  "mcp.tools-changed": { server: string; added: string[]; removed: string[] };
  /** A server's `notifications/message`. */
  "mcp.log": { server: string; level: string; logger?: string; data: unknown };
  /** The server's prompt or resource list changed: `prompts()` / `resources()` give the new one. */
  "mcp.prompts-changed": { server: string };
  "mcp.resources-changed": { server: string };
  /** A subscribed resource changed: read it again. */
  "mcp.resource-updated": { server: string; uri: string };
  /** A request (or notification) weft sent to an MCP server, or a request it received from one (`from`); `mcp.response` with the same `key` ends it. */
  "mcp.request": McpRequestInfo;
  /** The server answered `key` (a notification: it was sent); `error` when it failed, was cancelled or the connection closed first. */
  "mcp.response": { key: string; server: string; method: string; durationMs: number; sessionId?: string; protocolVersion?: string; error?: McpRequestError };
}

/** One MCP request as sent, in the terms of the OpenTelemetry MCP conventions. */
export interface McpRequestInfo {
  /** Unique in the process: pairs the request with its `mcp.response` (and its span with the request's trace context). */
  key: string;
  /** The server's name in the config. */
  server: string;
  /** The JSON-RPC method: `tools/call`, `initialize`, `notifications/cancelled`... */
  method: string;
  /** The JSON-RPC id, as text; absent for a notification. */
  requestId?: string;
  /** The tool (`tools/call`) or prompt (`prompts/get`) the request is about, by the server's own name. */
  target?: string;
  /** The resource of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
  uri?: string;
  transport: "stdio" | "http" | "sse";
  /** The server's host and port (remote servers). */
  address?: string;
  port?: number;
  /** The MCP session (`Mcp-Session-Id`) once the server gave one. */
  sessionId?: string;
  /** The protocol version the session negotiated, once known. */
  protocolVersion?: string;
  /** The W3C trace context the request was made in (the calling tool's span), when one is traced. */
  parent?: { traceparent: string; tracestate?: string };
  /** `server`: a request the server sent to weft (`elicitation/create`...); `mcp.response` is weft's answer. */
  from?: "server";
}

/** Why an MCP request failed: `type` is the JSON-RPC error code as text, `tool_error`, `cancelled`, `connection_closed` or `transport_error`. */
export interface McpRequestError {
  type: string;
  /** The JSON-RPC error code, when the server answered with one. */
  code?: number;
  message: string;
}

export type FeedbackEventType = keyof FeedbackEventMap;
export type FeedbackEvent = { [K in FeedbackEventType]: { type: K } & FeedbackEventMap[K] }[FeedbackEventType];
export type FeedbackEventOf<K extends FeedbackEventType> = Extract<FeedbackEvent, { type: K }>;
