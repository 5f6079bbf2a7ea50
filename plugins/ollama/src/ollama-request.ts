import type { ChatRequest, Effort, Message, ToolSpec } from "@weft/sdk";

export const OLLAMA = "ollama";
/** Prefix of the call ids weft makes up when Ollama gives none; such ids are never sent back. */
export const SYNTHETIC_CALL_ID_PREFIX = "ollama_call_";

export interface OllamaCall {
  model: string;
  effort: Effort;
  /** `options.num_predict` when the request sets no limit. */
  maxTokens?: number;
  /** `options.num_ctx`: the context length Ollama loads the model with. */
  numCtx?: number;
  keepAlive?: string | number;
}

type WireToolCall = { id?: string; function: { name: string; arguments: Record<string, unknown> } };

export type OllamaMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string; thinking?: string; tool_calls?: WireToolCall[] }
  | { role: "tool"; tool_name: string; content: string; tool_call_id?: string };

/**
 * The native `/api/chat` body: tool calls with object arguments, tool results as `{role: "tool",
 * tool_name, content}` (plus `tool_call_id` when the call had a real id), this provider's own
 * thinking replayed as `thinking`, and effort as `think`.
 */
export function ollamaRequestBody(request: ChatRequest, call: OllamaCall): Record<string, unknown> {
  const tools = request.tools ?? [];
  const options: Record<string, unknown> = {};
  const maxTokens = request.maxTokens ?? call.maxTokens;
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (call.numCtx !== undefined) options.num_ctx = call.numCtx;
  return {
    model: call.model,
    messages: request.messages.map(toWireMessage),
    ...(tools.length > 0 ? { tools: tools.map(toWireTool) } : {}),
    think: thinkFor(call.effort),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(call.keepAlive !== undefined ? { keep_alive: call.keepAlive } : {}),
    stream: true,
  };
}

/** Ollama's `think`: false when off, else a level, `max` being `high`. */
export function thinkFor(effort: Effort): boolean | "low" | "medium" | "high" {
  if (effort === "off") return false;
  return effort === "max" ? "high" : effort;
}

/** Whether a call id came from the server (and so may be sent back). */
export function isServerCallId(id: string): boolean {
  return id !== "" && !id.startsWith(SYNTHETIC_CALL_ID_PREFIX);
}

function toWireMessage(message: Message): OllamaMessage {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return {
        role: "tool",
        tool_name: message.toolName,
        content: message.content,
        ...(isServerCallId(message.toolCallId) ? { tool_call_id: message.toolCallId } : {}),
      };
    case "assistant": {
      const wire: OllamaMessage = { role: "assistant", content: message.content };
      const thinking = (message.reasoning ?? [])
        .filter((block) => block.provider === OLLAMA && block.text)
        .map((block) => block.text)
        .join("\n\n");
      if (thinking) wire.thinking = thinking;
      const calls = message.toolCalls ?? [];
      if (calls.length > 0) {
        wire.tool_calls = calls.map((toolCall) => ({
          ...(isServerCallId(toolCall.id) ? { id: toolCall.id } : {}),
          function: { name: toolCall.name, arguments: toolCall.arguments ?? {} },
        }));
      }
      return wire;
    }
  }
}

function toWireTool(tool: ToolSpec): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}
