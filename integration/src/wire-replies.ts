import type { ScriptedResponse } from "@weft/sdk/testing";

/**
 * One model reply, said once and written in each provider's streaming wire format, so a test scripts
 * the same conversation for every provider.
 */
export interface ReplyParts {
  text?: string;
  /** Anthropic: a thinking block (with its signature); Ollama: `message.thinking`. */
  thinking?: { text: string; signature?: string };
  /** Calls made in parallel, in this order. Anthropic and Chat Completions need an `id`; Ollama sends one only when given (it often sends none). */
  toolCalls?: { id?: string; name: string; arguments: Record<string, unknown> }[];
  /** The prompt and output token counts the provider reports. */
  usage: { prompt: number; output: number };
}

/** A server always names its calls; a made-up default could repeat across replies. */
function callId(call: { id?: string; name: string }): string {
  if (!call.id) throw new Error(`scripted reply: the call of ${call.name} needs an id on this wire`);
  return call.id;
}

/** Splits a string in two, so every streamed value arrives as more than one delta. */
function halves(text: string): [string, string] {
  const half = Math.ceil(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

/** Messages API events, framed as SSE, one write each. */
export function anthropicReply(parts: ReplyParts): ScriptedResponse {
  const calls = parts.toolCalls ?? [];
  const events: Record<string, unknown>[] = [
    { type: "message_start", message: { id: "msg_scripted", type: "message", role: "assistant", content: [], usage: { input_tokens: parts.usage.prompt, output_tokens: 1 } } },
  ];
  let index = 0;
  if (parts.thinking) {
    const [head, tail] = halves(parts.thinking.text);
    events.push(
      { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: head } },
      { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: tail } },
      { type: "content_block_delta", index, delta: { type: "signature_delta", signature: parts.thinking.signature ?? "" } },
      { type: "content_block_stop", index },
    );
    index++;
  }
  if (parts.text) {
    const [head, tail] = halves(parts.text);
    events.push(
      { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index, delta: { type: "text_delta", text: head } },
      { type: "ping" },
      { type: "content_block_delta", index, delta: { type: "text_delta", text: tail } },
      { type: "content_block_stop", index },
    );
    index++;
  }
  for (const call of calls) {
    const [head, tail] = halves(JSON.stringify(call.arguments));
    events.push(
      { type: "content_block_start", index, content_block: { type: "tool_use", id: callId(call), name: call.name, input: {} } },
      { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: head } },
      { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: tail } },
      { type: "content_block_stop", index },
    );
    index++;
  }
  events.push(
    { type: "message_delta", delta: { stop_reason: calls.length > 0 ? "tool_use" : "end_turn" }, usage: { output_tokens: parts.usage.output } },
    { type: "message_stop" },
  );
  return {
    headers: { "content-type": "text/event-stream" },
    body: events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`),
  };
}

/** Chat Completions chunks, framed as SSE: tool-call fragments merged by index, a usage-only chunk, [DONE]. */
export function chatCompletionsReply(parts: ReplyParts): ScriptedResponse {
  const calls = parts.toolCalls ?? [];
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: "gen-scripted",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: unknown[] = [chunk({ role: "assistant", content: parts.text ? "" : null })];
  if (parts.text) for (const piece of halves(parts.text)) chunks.push(chunk({ content: piece }));
  calls.forEach((call, index) => {
    const [head, tail] = halves(JSON.stringify(call.arguments));
    chunks.push(
      chunk({ tool_calls: [{ index, id: callId(call), type: "function", function: { name: call.name, arguments: "" } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: head } }] }),
      chunk({ tool_calls: [{ index, function: { arguments: tail } }] }),
    );
  });
  chunks.push(chunk({}, calls.length > 0 ? "tool_calls" : "stop"), {
    id: "gen-scripted",
    object: "chat.completion.chunk",
    choices: [],
    usage: { prompt_tokens: parts.usage.prompt, completion_tokens: parts.usage.output, total_tokens: parts.usage.prompt + parts.usage.output },
  });
  return {
    headers: { "content-type": "text/event-stream" },
    body: [...chunks.map((payload) => `data: ${JSON.stringify(payload)}\n\n`), "data: [DONE]\n\n"],
  };
}

/** Ollama `/api/chat` NDJSON lines: thinking, text, the tool calls whole, then the `done: true` line. */
export function ollamaReply(parts: ReplyParts, createdAt = "2025-07-07T20:22:19Z"): ScriptedResponse {
  const line = (message: Record<string, unknown>, extra: object = {}) =>
    `${JSON.stringify({ model: "scripted", created_at: createdAt, message: { role: "assistant", content: "", ...message }, done: false, ...extra })}\n`;
  const lines: string[] = [];
  if (parts.thinking) for (const piece of halves(parts.thinking.text)) lines.push(line({ thinking: piece }));
  if (parts.text) for (const piece of halves(parts.text)) lines.push(line({ content: piece }));
  const calls = parts.toolCalls ?? [];
  if (calls.length > 0) {
    lines.push(line({ tool_calls: calls.map((call) => ({ ...(call.id ? { id: call.id } : {}), function: { name: call.name, arguments: call.arguments } })) }));
  }
  lines.push(line({}, { done: true, done_reason: "stop", prompt_eval_count: parts.usage.prompt, eval_count: parts.usage.output }));
  return { headers: { "content-type": "application/x-ndjson" }, body: lines };
}
