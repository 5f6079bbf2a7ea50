import type { ChatRequest, Effort, Message, ToolSpec } from "@weft/sdk";

export const OPENROUTER = "openrouter";
export const OPENAI_COMPATIBLE = "openai-compatible";

/** How effort reaches the wire: OpenRouter's `reasoning` object, or OpenAI's `reasoning_effort`. */
export type EffortStyle = "openrouter" | "reasoning_effort";

export interface ChatCompletionsCall {
  /** Provider id: reasoning blocks carrying it are replayed (`reasoning_details`). */
  provider: string;
  model: string;
  effort: Effort;
  effortStyle: EffortStyle;
  /** The limit when the request sets none; no limit is sent when both are absent. */
  maxTokens?: number;
  /** OpenAI's reasoning models take `max_completion_tokens` and reject `max_tokens`. */
  maxTokensField: "max_tokens" | "max_completion_tokens";
}

export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export type WireMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[]; reasoning_details?: unknown[] }
  | { role: "tool"; tool_call_id: string; content: string };

/**
 * The Chat Completions body for a provider-neutral request. Tool calls carry their arguments as a
 * JSON string; tool results are `role: "tool"` messages; `reasoning_details` of this provider's own
 * reasoning blocks go back unmodified; usage is asked for in the stream.
 */
export function chatCompletionsBody(request: ChatRequest, call: ChatCompletionsCall): Record<string, unknown> {
  const tools = request.tools ?? [];
  const maxTokens = request.maxTokens ?? call.maxTokens;
  return {
    model: call.model,
    messages: request.messages.map((message) => toWireMessage(message, call.provider)),
    ...(tools.length > 0 ? { tools: tools.map(toWireTool) } : {}),
    ...(maxTokens !== undefined ? { [call.maxTokensField]: maxTokens } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    ...effortFields(call.effort, call.effortStyle),
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** The effort ladder per the provider: OpenRouter takes every level; OpenAI-style tops out at high. */
export function effortFields(effort: Effort, style: EffortStyle): Record<string, unknown> {
  if (style === "openrouter") return { reasoning: { effort: effort === "off" ? "none" : effort } };
  if (effort === "off") return {};
  return { reasoning_effort: effort === "max" ? "high" : effort };
}

function toWireMessage(message: Message, provider: string): WireMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant": {
      const calls = message.toolCalls ?? [];
      const wire: WireMessage = { role: "assistant", content: message.content || (calls.length > 0 ? null : "") };
      if (calls.length > 0) {
        wire.tool_calls = calls.map((toolCall) => ({
          id: toolCall.id,
          type: "function",
          function: { name: toolCall.name, arguments: JSON.stringify(toolCall.arguments ?? {}) },
        }));
      }
      const details = (message.reasoning ?? []).filter((block) => block.provider === provider).flatMap((block) => block.details ?? []);
      if (details.length > 0) wire.reasoning_details = details;
      return wire;
    }
  }
}

function toWireTool(tool: ToolSpec): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}
