import {
  messageParts,
  partPlaceholder,
  partUrl,
  type ChatRequest,
  type ContentPart,
  type Effort,
  type Message,
  type ResolvedOutput,
  type ToolMessage,
  type ToolSpec,
} from "@weft/sdk";
import { adaptOutputSchema, keepJson, OPENAI_STRICT_DIALECT, outputInstruction, sharedWireList, type ModelCapabilities } from "@weft/sdk/provider";

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
  /** What the model accepts; undefined when unknown (a failed lookup): fields are sent as asked. */
  capabilities?: ModelCapabilities;
  /** Mark cache breakpoints (`cache_control`) on content parts: OpenRouter's anthropic/* models need them to cache. */
  cacheControl?: boolean;
  /** Structured output: `response_format` json_schema (strict) where the model has it, else an instruction. */
  output?: ResolvedOutput;
}

/** Something the request had to leave out or change to be valid for the model. */
export interface RequestNotice {
  code: string;
  message: string;
}

type CacheControl = { type: "ephemeral" };
type WirePart =
  | { type: "text"; text: string; cache_control?: CacheControl }
  | { type: "image_url"; image_url: { url: string } }
  | { type: "file"; file: { filename: string; file_data: string } };

interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

type WireMessage =
  | { role: "system" | "user"; content: string | WirePart[] }
  | { role: "assistant"; content: string | null; tool_calls?: WireToolCall[]; reasoning_details?: unknown[] }
  | { role: "tool"; tool_call_id: string; content: string | WirePart[] };

/**
 * The Chat Completions body for a provider-neutral request. Tool calls carry their arguments as a
 * JSON string; tool results are `role: "tool"` messages; `reasoning_details` of this provider's own
 * reasoning blocks go back unmodified; usage is asked for in the stream.
 */
export function chatCompletionsBody(request: ChatRequest, call: ChatCompletionsCall): Record<string, unknown> {
  return chatCompletionsRequest(request, call).body;
}

/** The body and what was changed to fit the model (effort it does not take, parts it cannot read). */
export function chatCompletionsRequest(request: ChatRequest, call: ChatCompletionsCall): { body: Record<string, unknown>; notices: RequestNotice[] } {
  const notices: RequestNotice[] = [];
  const tools = request.tools ?? [];
  const maxTokens = request.maxTokens ?? call.maxTokens;
  const messages = toWireMessages(request.messages, call, notices);
  const output = call.output ? outputFields(call.output, call, messages, notices) : {};
  if (call.cacheControl) markCacheBreakpoints(messages);
  const reasons = call.capabilities?.reasoning ?? call.effortStyle === "openrouter";
  if (call.effort !== "off" && !reasons) notices.push({ code: "effort-unsupported", message: `effort ${call.effort} was not sent: the model does not list reasoning` });
  return {
    body: {
      model: call.model,
      messages,
      ...(tools.length > 0 ? { tools: wireTools(tools) } : {}),
      ...(maxTokens !== undefined ? { [call.maxTokensField]: maxTokens } : {}),
      ...samplingFields(request, call, notices),
      ...(reasons ? effortFields(call.effort, call.effortStyle) : {}),
      ...output,
      stream: true,
      stream_options: { include_usage: true },
    },
    notices,
  };
}

/** The sampling fields on the wire, and the request's names for them. */
const SAMPLING = [
  ["temperature", "temperature"],
  ["top_p", "topP"],
  ["top_k", "topK"],
] as const satisfies readonly (readonly [string, keyof ChatRequest])[];

/**
 * `temperature`, `top_p`, `top_k`: each only where the model's parameter list has it (OpenRouter's
 * reasoning models that refuse temperature do not list it); all as asked when the list is unknown.
 * `top_k` is not part of OpenAI's API, so an OpenAI-compatible endpoint is not sent it.
 */
function samplingFields(request: ChatRequest, call: ChatCompletionsCall, notices: RequestNotice[]): Record<string, number> {
  const fields: Record<string, number> = {};
  const listed = call.capabilities?.samplingParameters;
  for (const [name, key] of SAMPLING) {
    const value = request[key];
    if (value === undefined) continue;
    if (name === "top_k" && call.effortStyle !== "openrouter") {
      notices.push({ code: "top-k-dropped", message: `top_k ${value} was not sent: it is not part of the Chat Completions API` });
    } else if (listed && !listed.includes(name)) {
      notices.push({ code: `${name.replace("_", "-")}-dropped`, message: `${name} ${value} was not sent: the model does not list it among its parameters` });
    } else fields[name] = value;
  }
  return fields;
}

/**
 * Structured output. Where the model has it (OpenRouter lists `structured_outputs`; an
 * OpenAI-compatible endpoint says so in its settings; unknown counts as yes on OpenRouter):
 * `response_format` json_schema with `strict: true`, the schema adapted to strict mode, and on
 * OpenRouter `provider.require_parameters` so the request is routed only to hosts that honour it.
 * Elsewhere a system message states the schema; the reply is validated either way.
 */
function outputFields(output: ResolvedOutput, call: ChatCompletionsCall, messages: WireMessage[], notices: RequestNotice[]): Record<string, unknown> {
  const native = call.capabilities?.structuredOutput ?? call.effortStyle === "openrouter";
  if (!native) {
    notices.push({ code: "output-instructed", message: "the model has no structured output mode: the schema is stated in a system message and the reply validated" });
    const instruction: WireMessage = { role: "system", content: outputInstruction(output) };
    const firstOther = messages.findIndex((message) => message.role !== "system");
    messages.splice(firstOther < 0 ? messages.length : firstOther, 0, instruction);
    return {};
  }
  const adapted = adaptOutputSchema(output.jsonSchema, OPENAI_STRICT_DIALECT);
  if (adapted.moved.length > 0) {
    notices.push({ code: "output-schema-adapted", message: `the output schema was adapted to ${OPENAI_STRICT_DIALECT.name}; moved into descriptions: ${adapted.moved.join(", ")}` });
  }
  const jsonSchema = { name: output.name, ...(output.description !== undefined ? { description: output.description } : {}), strict: true, schema: adapted.schema };
  return {
    response_format: { type: "json_schema", json_schema: jsonSchema },
    ...(call.effortStyle === "openrouter" ? { provider: { require_parameters: true } } : {}),
  };
}

/**
 * The effort ladder per the provider. `off` sends nothing at all: reasoning models refuse
 * `effort: "none"` ("Reasoning is mandatory"), and a model that does not reason needs no field.
 * OpenRouter's `reasoning.effort` tops out at `xhigh`, OpenAI's `reasoning_effort` at `high`.
 */
export function effortFields(effort: Effort, style: EffortStyle): Record<string, unknown> {
  if (effort === "off") return {};
  if (style === "openrouter") return { reasoning: { effort: effort === "max" ? "xhigh" : effort } };
  return { reasoning_effort: effort === "max" ? "high" : effort };
}

function toWireMessages(messages: Message[], call: ChatCompletionsCall, notices: RequestNotice[]): WireMessage[] {
  const wire: WireMessage[] = [];
  // Tool messages take only text on OpenAI's wire: what a run of tool results returned besides text
  // follows them as one user message, once the run is over (tool messages must follow their call).
  let carried: WirePart[] = [];
  const flush = () => {
    if (carried.length === 0) return;
    wire.push({ role: "user", content: carried });
    carried = [];
  };
  for (const message of messages) {
    if (message.role !== "tool") flush();
    if (message.role === "tool") {
      const { text, media } = toolContent(message, call, notices);
      wire.push({ role: "tool", tool_call_id: message.toolCallId, content: text });
      if (media.length > 0) carried.push({ type: "text", text: `What ${message.toolName} (${message.toolCallId}) returned:` }, ...media);
    } else {
      wire.push(wireMessageOf(message, call, notices));
    }
  }
  flush();
  return wire;
}

interface WireForm {
  provider: string;
  capabilities: ModelCapabilities | undefined;
  wire: WireMessage;
}

/**
 * Wire forms of frozen messages, by identity: an agent's transcript is frozen messages that never
 * change, so a long conversation is converted once, not again on every call. A form depends on the
 * provider (whose reasoning is replayed) and the model's capabilities (which parts it reads); one that
 * needed a notice is not kept, so the notice is given on every call. Kept forms are shared between
 * requests, so nothing may change a wire message after it is built (see markCacheBreakpoints); their
 * JSON text is kept too (`keepJson`), so a long conversation is also encoded once.
 */
const wireForms = new WeakMap<Message, WireForm>();

function wireMessageOf(message: Exclude<Message, ToolMessage>, call: ChatCompletionsCall, notices: RequestNotice[]): WireMessage {
  const known = wireForms.get(message);
  if (known && known.provider === call.provider && known.capabilities === call.capabilities) return known.wire;
  const noticesBefore = notices.length;
  const wire = toWireMessage(message, call, notices);
  if (Object.isFrozen(message) && notices.length === noticesBefore) wireForms.set(message, { provider: call.provider, capabilities: call.capabilities, wire: keepJson(wire) });
  return wire;
}

function toolContent(message: ToolMessage, call: ChatCompletionsCall, notices: RequestNotice[]): { text: string; media: WirePart[] } {
  if (!message.parts?.length) return { text: message.content, media: [] };
  const texts: string[] = [];
  const media: WirePart[] = [];
  for (const part of messageParts(message)) {
    const wire = toWirePart(part, call, notices);
    if (wire.type === "text") texts.push(wire.text);
    else {
      media.push(wire);
      texts.push(`[${part.type} attached below]`);
    }
  }
  return { text: texts.join("\n"), media };
}

function toWireMessage(message: Exclude<Message, ToolMessage>, call: ChatCompletionsCall, notices: RequestNotice[]): WireMessage {
  switch (message.role) {
    case "system":
      return { role: "system", content: message.content };
    case "user":
      return { role: "user", content: message.parts?.length ? messageParts(message).map((part) => toWirePart(part, call, notices)) : message.content };
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
      const details = (message.reasoning ?? []).filter((block) => block.provider === call.provider).flatMap((block) => block.details ?? []);
      if (details.length > 0) wire.reasoning_details = details;
      return wire;
    }
  }
}

/** `image_url` for images, `file` (a data URL or link in `file_data`) for PDFs; a placeholder for what the model cannot read. */
function toWirePart(part: ContentPart, call: ChatCompletionsCall, notices: RequestNotice[]): WirePart {
  if (part.type === "text") return { type: "text", text: part.text };
  const accepted = part.type === "image" ? (call.capabilities?.images ?? true) : (call.capabilities?.documents ?? true);
  if (!accepted) {
    const text = partPlaceholder(part, `this model does not accept ${part.type === "image" ? "images" : "documents"}`);
    notices.push({ code: `${part.type}-dropped`, message: text });
    return { type: "text", text };
  }
  if (part.type === "image") return { type: "image_url", image_url: { url: partUrl(part) } };
  return { type: "file", file: { filename: part.name ?? "document.pdf", file_data: partUrl(part) } };
}

/**
 * Two breakpoints, as OpenRouter documents for Anthropic models: the system prompt (with the tools
 * before it) and the last text of the conversation, so each turn reads the cache the last one wrote.
 * The marked messages are replaced by marked copies: a wire message may be shared with other requests.
 */
function markCacheBreakpoints(messages: WireMessage[]): void {
  const systemIndex = messages.findIndex((message) => message.role === "system");
  const system = messages[systemIndex];
  if (system?.role === "system" && typeof system.content === "string") messages[systemIndex] = { ...system, content: [cachedText(system.content)] };
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!message || index === systemIndex || message.role === "assistant") continue;
    if (typeof message.content === "string") {
      if (message.content === "") continue;
      messages[index] = { ...message, content: [cachedText(message.content)] };
      return;
    }
    const last = message.content.findLastIndex((part) => part.type === "text");
    const text = message.content[last];
    if (text?.type === "text") {
      messages[index] = { ...message, content: message.content.map((part, at) => (at === last ? cachedText(text.text) : part)) };
      return;
    }
  }
}

function cachedText(text: string): WirePart {
  return { type: "text", text, cache_control: { type: "ephemeral" } };
}

/** Wire tools by tool list: an agent's frozen list is mapped and encoded once (`sharedWireList`). */
const wireTools = sharedWireList(toWireTool);

function toWireTool(tool: ToolSpec): Record<string, unknown> {
  return { type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } };
}
