import type { ToolCall } from "@weft/sdk";
import type { ConformanceWire, ScriptedResponse } from "@weft/sdk/testing";

// The same wires the native providers' conformance runs use: what OpenAI-compatible servers and
// Anthropic's Messages API send, framed as SSE.
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: "gen-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason: finish }],
});
const usage = { id: "gen-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } };
/** A scripted server's reply that streams `body` as server-sent events. */
export const sseReply = (body: string[]): ScriptedResponse => ({ headers: { "content-type": "text/event-stream" }, body });
export const frame = (chunks: unknown[]) => chunks.map((payload) => `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`);

export function chatText(text: string): unknown[] {
  const half = Math.ceil(text.length / 2);
  return [chunk({ role: "assistant", content: "" }), chunk({ content: text.slice(0, half) }), chunk({ content: text.slice(half) }), chunk({}, "stop"), usage, "[DONE]"];
}

export function chatToolCall(call: ToolCall): unknown[] {
  const json = JSON.stringify(call.arguments);
  return [
    chunk({ role: "assistant", content: null }),
    chunk({ tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: json.slice(0, 4) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: json.slice(4) } }] }),
    chunk({}, "tool_calls"),
    usage,
    "[DONE]",
  ];
}

export const chatCompletionsWire: ConformanceWire = {
  contentType: "text/event-stream",
  text: (text) => frame(chatText(text)),
  toolCall: (call) => frame(chatToolCall(call)),
  truncated: (text) => frame(chatText(text).slice(0, 3)),
  errorBody: (status, message) => JSON.stringify({ error: { code: status, message } }),
};

export const sse = (events: Record<string, unknown>[]) => events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
export const start = { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 1 } } };
const end = (stopReason: string) => [{ type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 7 } }, { type: "message_stop" }];

function messagesText(text: string): Record<string, unknown>[] {
  const half = Math.ceil(text.length / 2);
  return [
    start,
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(0, half) } },
    { type: "ping" },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(half) } },
    { type: "content_block_stop", index: 0 },
    ...end("end_turn"),
  ];
}

function messagesToolCall(call: ToolCall): Record<string, unknown>[] {
  const json = JSON.stringify(call.arguments);
  return [
    start,
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json.slice(0, 5) } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json.slice(5) } },
    { type: "content_block_stop", index: 0 },
    ...end("tool_use"),
  ];
}

export const messagesWire: ConformanceWire = {
  contentType: "text/event-stream",
  text: (text) => sse(messagesText(text)),
  toolCall: (call) => sse(messagesToolCall(call)),
  truncated: (text) => sse(messagesText(text).slice(0, -1)),
  errorBody: (_status, message) => JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }),
};
