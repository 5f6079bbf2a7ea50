import {
  messageParts,
  partPlaceholder,
  type ChatRequest,
  type Effort,
  type Message,
  type ResolvedOutput,
  type ToolMessage,
  type ToolSpec,
  type UserMessage,
} from "@weft/sdk";
import { sharedWireList } from "@weft/sdk/provider";
import type { OllamaCapabilities } from "./ollama-capabilities.js";

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
  /** From `/api/show`; undefined when unknown: `think` is then sent only when effort asks for it. */
  capabilities?: OllamaCapabilities;
  /** Structured output: sent as `format` (Ollama constrains the reply to the JSON Schema). */
  output?: ResolvedOutput;
}

/** Something the request had to leave out or change to be valid for the model. */
export interface RequestNotice {
  code: string;
  message: string;
}

type WireToolCall = { id?: string; function: { name: string; arguments: Record<string, unknown> } };

type OllamaMessage =
  | { role: "system" | "user"; content: string; images?: string[] }
  | { role: "assistant"; content: string; thinking?: string; tool_calls?: WireToolCall[] }
  | { role: "tool"; tool_name: string; content: string; tool_call_id?: string; images?: string[] };

/**
 * The native `/api/chat` body: tool calls with object arguments, tool results as `{role: "tool",
 * tool_name, content}` (plus `tool_call_id` when the call had a real id), this provider's own
 * thinking replayed as `thinking`, and effort as `think`.
 */
export function ollamaRequestBody(request: ChatRequest, call: OllamaCall): Record<string, unknown> {
  return ollamaRequest(request, call).body;
}

/**
 * The body and what was changed to fit the model. `think: false` with effort off or for a model
 * that does not list `thinking` (Ollama refuses `true` there); otherwise a level for GPT-OSS (the
 * only models that take one) and `true` for the others; images (base64) only to `vision` models.
 */
export function ollamaRequest(request: ChatRequest, call: OllamaCall): { body: Record<string, unknown>; notices: RequestNotice[] } {
  const notices: RequestNotice[] = [];
  const tools = request.tools ?? [];
  const options: Record<string, unknown> = {};
  const maxTokens = request.maxTokens ?? call.maxTokens;
  if (maxTokens !== undefined) options.num_predict = maxTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.top_p = request.topP;
  if (request.topK !== undefined) options.top_k = request.topK;
  if (call.numCtx !== undefined) options.num_ctx = call.numCtx;
  const think = thinkField(call, notices);
  return {
    body: {
      model: call.model,
      messages: request.messages.map((message) => toWireMessage(message, call, notices)),
      ...(tools.length > 0 ? { tools: wireTools(tools) } : {}),
      think,
      ...(call.output ? { format: call.output.jsonSchema } : {}),
      ...(Object.keys(options).length > 0 ? { options } : {}),
      ...(call.keepAlive !== undefined ? { keep_alive: call.keepAlive } : {}),
      stream: true,
    },
    notices,
  };
}

function thinkField(call: OllamaCall, notices: RequestNotice[]): boolean | "low" | "medium" | "high" {
  // false is accepted by every model: Ollama checks the thinking capability only for think: true
  // (and takes level strings only for GPT-OSS).
  if (call.effort === "off") return false;
  const capabilities = call.capabilities;
  if (!capabilities) return thinkFor(call.effort);
  if (!capabilities.reasoning) {
    notices.push({ code: "effort-unsupported", message: `effort ${call.effort} was not sent: the model does not list thinking` });
    return false;
  }
  return capabilities.thinkLevels ? thinkFor(call.effort) : true;
}

/** Ollama's `think` as a level: false when off, `max` being `high`. */
export function thinkFor(effort: Effort): boolean | "low" | "medium" | "high" {
  if (effort === "off") return false;
  return effort === "max" ? "high" : effort;
}

/** Whether a call id came from the server (and so may be sent back). */
export function isServerCallId(id: string): boolean {
  return id !== "" && !id.startsWith(SYNTHETIC_CALL_ID_PREFIX);
}

function toWireMessage(message: Message, call: OllamaCall, notices: RequestNotice[]): OllamaMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", ...withImages(message, call, notices) };
    case "tool":
      return {
        role: "tool",
        tool_name: message.toolName,
        ...withImages(message, call, notices),
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

/** Text joined, images (base64 only: Ollama fetches no URLs) in `images`; a placeholder for what the model cannot take. */
function withImages(message: UserMessage | ToolMessage, call: OllamaCall, notices: RequestNotice[]): { content: string; images?: string[] } {
  if (!message.parts?.length) return { content: message.content };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of messageParts(message)) {
    if (part.type === "text") {
      texts.push(part.text);
      continue;
    }
    const reason =
      part.type === "document" ? "Ollama takes no documents" : part.data === undefined ? "Ollama takes images as bytes, not URLs" : call.capabilities && !call.capabilities.images ? "this model does not accept images" : undefined;
    if (reason === undefined && part.data !== undefined) {
      images.push(part.data);
      continue;
    }
    const text = partPlaceholder(part, reason ?? "");
    notices.push({ code: `${part.type}-dropped`, message: text });
    texts.push(text);
  }
  return { content: texts.join("\n"), ...(images.length > 0 ? { images } : {}) };
}

/** Wire tools by tool list: an agent's frozen list is mapped and encoded once (`sharedWireList`). */
const wireTools = sharedWireList(toWireTool);

function toWireTool(tool: ToolSpec): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}
