import { messageParts, partPlaceholder, type ChatRequest, type ContentPart, type Effort, type Message, type ResolvedOutput, type ToolSpec } from "@weft/sdk";
import { adaptOutputSchema, ANTHROPIC_OUTPUT_DIALECT, keepJson, sharedWireList } from "@weft/sdk/provider";
import { anthropicFallbackCapabilities, type AnthropicCapabilities, type AnthropicEffort } from "./anthropic-capabilities.js";

/** The provider id, on ReasoningBlocks too: only blocks with it are replayed to Anthropic. */
export const ANTHROPIC = "anthropic";

type CacheControl = { type: "ephemeral" };
const EPHEMERAL: CacheControl = { type: "ephemeral" };

type Source = { type: "base64"; media_type: string; data: string } | { type: "url"; url: string };
type MediaBlock =
  | { type: "image"; source: Source; cache_control?: CacheControl }
  | { type: "document"; source: Source; title?: string; cache_control?: CacheControl };
type TextBlock = { type: "text"; text: string; cache_control?: CacheControl };

type AnthropicBlock =
  | TextBlock
  | MediaBlock
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; cache_control?: CacheControl }
  | { type: "tool_result"; tool_use_id: string; content: string | (TextBlock | MediaBlock)[]; is_error?: true; cache_control?: CacheControl };

interface AnthropicTurn {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: { type: "text"; text: string; cache_control?: CacheControl }[];
  messages: AnthropicTurn[];
  tools?: AnthropicTool[];
  tool_choice?: { type: "auto" } | { type: "any" } | { type: "tool"; name: string };
  thinking?: { type: "adaptive" } | { type: "enabled"; budget_tokens: number };
  output_config?: { effort?: AnthropicEffort; format?: { type: "json_schema"; schema: Record<string, unknown> } };
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stream: true;
}

export interface AnthropicCall {
  model: string;
  effort: Effort;
  maxTokens: number;
  /** Marks the last tool, the system block and the last message for prompt caching. */
  promptCaching: boolean;
  /** What the model accepts; the family table's row for `model` when absent. */
  capabilities?: AnthropicCapabilities;
  /** Structured output: `output_config.format` where the model has it, else a forced answer tool of this name. */
  output?: ResolvedOutput;
}

/** Something the request had to leave out or change to be valid for the model. */
export interface RequestNotice {
  code: string;
  message: string;
}

/** `budget_tokens` per effort for models that think on a budget; the API's minimum is 1024. */
const THINKING_BUDGETS: Readonly<Record<Exclude<Effort, "off">, number>> = Object.freeze({ low: 2048, medium: 8192, high: 16_384, max: 32_768 });
const MIN_THINKING_BUDGET = 1024;

/**
 * The Messages API body for a provider-neutral request: system messages joined into one system
 * block, consecutive same-role turns merged (parallel tool results become one user turn), thinking
 * replayed verbatim with its signature, and up to three of Anthropic's four cache breakpoints.
 */
export function anthropicRequestBody(request: ChatRequest, call: AnthropicCall): AnthropicBody {
  return anthropicRequest(request, call).body;
}

/**
 * The body and what was changed to fit the model. Effort becomes adaptive thinking plus
 * `output_config.effort` where the model has both; a thinking budget below `max_tokens` (which grows
 * by the budget, within the model's limit) where it thinks on a budget; nothing where it does not
 * think. With thinking on, no `temperature`; and none at all when the turn in progress is a tool
 * call without a signed thinking block (written by another provider): the API refuses that.
 */
export function anthropicRequest(request: ChatRequest, call: AnthropicCall): { body: AnthropicBody; notices: RequestNotice[] } {
  const capabilities = call.capabilities ?? anthropicFallbackCapabilities(call.model);
  const notices: RequestNotice[] = [];
  const systems: string[] = [];
  const turns = new TurnList();
  for (const message of request.messages) {
    if (message.role === "system") systems.push(message.content);
    else turns.add(turnOf(message, capabilities, notices));
  }
  const { messages } = turns;
  const tools = request.tools ?? [];
  const limit = Math.min(request.maxTokens ?? call.maxTokens, capabilities.maxOutputTokens ?? Number.POSITIVE_INFINITY);
  const reasoning = reasoningFields(call.effort, limit, capabilities, request.messages, notices);
  const thinking = reasoning.thinking !== undefined;
  const output = call.output ? outputFields(call.output, capabilities, tools.length > 0, thinking, notices) : {};
  const outputConfig = { ...(reasoning.effort ? { effort: reasoning.effort } : {}), ...(output.format ? { format: output.format } : {}) };
  const allTools = output.answerTool ? [...wireTools(tools), output.answerTool] : wireTools(tools);
  const body: AnthropicBody = {
    model: call.model,
    max_tokens: reasoning.maxTokens,
    ...(systems.length > 0 ? { system: [{ type: "text" as const, text: systems.join("\n\n") }] } : {}),
    messages,
    ...(allTools.length > 0 ? { tools: allTools } : {}),
    ...(output.toolChoice ? { tool_choice: output.toolChoice } : {}),
    ...(reasoning.thinking ? { thinking: reasoning.thinking } : {}),
    ...(Object.keys(outputConfig).length > 0 ? { output_config: outputConfig } : {}),
    ...samplingFields(request, call.model, thinking, notices),
    stream: true,
  };
  if (call.promptCaching) markCacheBreakpoints(body);
  return { body, notices };
}

/**
 * Models from Opus 4.1 / Sonnet 4.5 / Haiku 4.5 on refuse `temperature` and `top_p` together
 * ("cannot both be specified for this model. Please use only one").
 */
const ONE_SAMPLING_PARAMETER = /^claude-(?:opus-4-[1-9]|sonnet-4-[5-9]|haiku-4-[5-9]|[a-z]+-[5-9]|mythos|fable)/;

/**
 * `temperature`, `top_p`, `top_k` as the model takes them. With thinking on, Anthropic refuses
 * changed `temperature` and `top_k` and takes `top_p` only from 0.95 to 1; newer models take only
 * one of `temperature` and `top_p` (temperature wins). What is left out is said in a notice.
 */
function samplingFields(request: ChatRequest, model: string, thinking: boolean, notices: RequestNotice[]): Pick<AnthropicBody, "temperature" | "top_p" | "top_k"> {
  const fields: Pick<AnthropicBody, "temperature" | "top_p" | "top_k"> = {};
  const { temperature, topP, topK } = request;
  if (temperature !== undefined) {
    if (thinking) notices.push({ code: "temperature-dropped", message: `temperature ${temperature} was not sent: Anthropic does not take it with thinking on` });
    else fields.temperature = temperature;
  }
  if (topK !== undefined) {
    if (thinking) notices.push({ code: "top-k-dropped", message: `top_k ${topK} was not sent: Anthropic does not take it with thinking on` });
    else fields.top_k = topK;
  }
  if (topP !== undefined) {
    if (thinking && (topP < 0.95 || topP > 1)) notices.push({ code: "top-p-dropped", message: `top_p ${topP} was not sent: with thinking on Anthropic takes top_p only from 0.95 to 1` });
    else if (fields.temperature !== undefined && ONE_SAMPLING_PARAMETER.test(model)) {
      notices.push({ code: "top-p-dropped", message: `top_p ${topP} was not sent: ${model} takes temperature or top_p, not both, and temperature was given` });
    } else fields.top_p = topP;
  }
  return fields;
}

interface OutputFields {
  format?: { type: "json_schema"; schema: Record<string, unknown> };
  answerTool?: AnthropicTool;
  toolChoice?: AnthropicBody["tool_choice"];
}

/**
 * Structured output: `output_config.format` with the schema adapted to Anthropic's subset where the
 * model has structured outputs; else a tool taking the schema as its input that the model must call
 * (`tool_choice` `tool`, or `any` beside other tools so it can use those first). With thinking on
 * Anthropic takes only `tool_choice: auto`, so then the model is asked, not forced.
 */
function outputFields(output: ResolvedOutput, capabilities: AnthropicCapabilities, otherTools: boolean, thinking: boolean, notices: RequestNotice[]): OutputFields {
  if (capabilities.structuredOutput) {
    const adapted = adaptOutputSchema(output.jsonSchema, ANTHROPIC_OUTPUT_DIALECT);
    if (adapted.moved.length > 0) {
      notices.push({ code: "output-schema-adapted", message: `the output schema was adapted to ${ANTHROPIC_OUTPUT_DIALECT.name}; moved into descriptions: ${adapted.moved.join(", ")}` });
    }
    return { format: { type: "json_schema", schema: adapted.schema } };
  }
  const answerTool: AnthropicTool = {
    name: output.name,
    description: `Give your final answer by calling this tool${output.description ? `: ${output.description}` : ""}. Its input is the answer.`,
    input_schema: output.jsonSchema,
  };
  if (thinking) {
    notices.push({ code: "output-tool-auto", message: `the model has no structured outputs and thinks: it is asked, not forced, to answer through the ${output.name} tool (Anthropic takes only tool_choice auto with thinking)` });
    return { answerTool, toolChoice: { type: "auto" } };
  }
  return { answerTool, toolChoice: otherTools ? { type: "any" } : { type: "tool", name: output.name } };
}

interface ReasoningFields {
  maxTokens: number;
  thinking?: AnthropicBody["thinking"];
  effort?: AnthropicEffort;
}

function reasoningFields(effort: Effort, limit: number, capabilities: AnthropicCapabilities, messages: Message[], notices: RequestNotice[]): ReasoningFields {
  if (effort === "off") return { maxTokens: limit };
  const level = effortLevel(effort, capabilities.effortLevels);
  const fields: ReasoningFields = { maxTokens: limit, ...(level ? { effort: level } : {}) };
  if (capabilities.thinking === "none") {
    if (!level) notices.push({ code: "effort-unsupported", message: `effort ${effort} was not sent: the model does not think` });
    return fields;
  }
  if (toolTurnWithoutThinking(messages)) {
    notices.push({
      code: "thinking-dropped",
      message: "thinking was off for this request: the tool call in progress has no signed Anthropic thinking block (it was written by another provider), which Anthropic refuses with thinking on",
    });
    return fields;
  }
  if (capabilities.thinking === "adaptive") return { ...fields, thinking: { type: "adaptive" } };
  const wanted = THINKING_BUDGETS[effort];
  const total = Math.min(limit + wanted, capabilities.maxOutputTokens ?? Number.POSITIVE_INFINITY);
  let budget = Math.min(wanted, total - limit);
  if (budget < MIN_THINKING_BUDGET) budget = Math.min(wanted, Math.floor(total / 2));
  if (budget < MIN_THINKING_BUDGET) {
    notices.push({ code: "thinking-dropped", message: `thinking was off for this request: max_tokens ${total} leaves no room for the minimum budget of ${MIN_THINKING_BUDGET}` });
    return fields;
  }
  return { ...fields, maxTokens: total, thinking: { type: "enabled", budget_tokens: budget } };
}

/** The model's level for `effort`: the highest it takes at or below it (`max` becomes `high` on Opus 4.5). */
function effortLevel(effort: Exclude<Effort, "off">, levels: readonly AnthropicEffort[]): AnthropicEffort | undefined {
  const ladder: AnthropicEffort[] = ["low", "medium", "high", "max"];
  for (let index = ladder.indexOf(effort); index >= 0; index--) {
    const level = ladder[index];
    if (level && levels.includes(level)) return level;
  }
  return undefined;
}

/** Whether the turn in progress (the last assistant message, followed only by tool results) calls tools without a signed thinking block. */
function toolTurnWithoutThinking(messages: Message[]): boolean {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!message || message.role === "tool") continue;
    if (message.role !== "assistant" || !message.toolCalls?.length) return false;
    return !(message.reasoning ?? []).some((block) => block.provider === ANTHROPIC && (block.signature !== undefined || block.redacted !== undefined));
  }
  return false;
}

interface TurnForm {
  images: boolean;
  documents: boolean;
  turn: AnthropicTurn;
}

/**
 * Turns of frozen messages, by identity: an agent's transcript is frozen messages that never change,
 * so a long conversation is converted once, not again on every call. A turn depends only on which
 * parts the model reads; one that needed a notice is not kept, so the notice is given on every call.
 * Kept turns are shared between requests, so nothing may change a turn or its blocks once built: a
 * merge makes a new turn (TurnList), a cache breakpoint marks a copy (markCacheBreakpoints). Their JSON
 * text is kept too (`keepJson`), so a long conversation is also encoded once.
 */
const turnForms = new WeakMap<Message, TurnForm>();

function turnOf(message: Exclude<Message, { role: "system" }>, capabilities: AnthropicCapabilities, notices: RequestNotice[]): AnthropicTurn {
  const { images, documents } = capabilities;
  const known = turnForms.get(message);
  if (known && known.images === images && known.documents === documents) return known.turn;
  const noticesBefore = notices.length;
  const turn = toTurn(message, capabilities, notices);
  if (Object.isFrozen(message) && notices.length === noticesBefore) turnForms.set(message, { images, documents, turn: keepJson(turn) });
  return turn;
}

function toTurn(message: Exclude<Message, { role: "system" }>, capabilities: AnthropicCapabilities, notices: RequestNotice[]): AnthropicTurn {
  switch (message.role) {
    case "user":
      return { role: "user", content: messageParts(message).map((part) => toBlock(part, capabilities, notices)) };
    case "tool": {
      const content = message.parts?.length ? messageParts(message).map((part) => toBlock(part, capabilities, notices)) : message.content;
      return {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: message.toolCallId, content, ...(message.isError ? { is_error: true as const } : {}) }],
      };
    }
    case "assistant": {
      const content: AnthropicBlock[] = [];
      for (const block of message.reasoning ?? []) {
        if (block.provider !== ANTHROPIC) continue;
        if (block.redacted !== undefined) content.push({ type: "redacted_thinking", data: block.redacted });
        else if (block.signature !== undefined) content.push({ type: "thinking", thinking: block.text ?? "", signature: block.signature });
      }
      // Anthropic rejects empty text blocks; a tool-only reply has none.
      if (message.content) content.push({ type: "text", text: message.content });
      for (const call of message.toolCalls ?? []) content.push({ type: "tool_use", id: call.id, name: call.name, input: call.arguments ?? {} });
      return { role: "assistant", content };
    }
  }
}

/** A content part as a Messages API block; a part the model cannot read becomes a text placeholder. */
function toBlock(part: ContentPart, capabilities: AnthropicCapabilities, notices: RequestNotice[]): TextBlock | MediaBlock {
  if (part.type === "text") return { type: "text", text: part.text };
  const accepted = part.type === "image" ? capabilities.images : capabilities.documents;
  if (!accepted) {
    const text = partPlaceholder(part, `this model does not accept ${part.type === "image" ? "images" : "documents"}`);
    notices.push({ code: `${part.type}-dropped`, message: text });
    return { type: "text", text };
  }
  const source: Source = part.data !== undefined ? { type: "base64", media_type: part.mediaType, data: part.data } : { type: "url", url: part.url ?? "" };
  if (part.type === "image") return { type: "image", source };
  return { type: "document", source, ...(part.name !== undefined ? { title: part.name } : {}) };
}

/**
 * The body's turns: one where the role repeats (parallel tool results become one user turn), none for
 * a turn with nothing to say. A turn may be shared with other requests (turnOf), so the first merge
 * makes a new turn of this request, and the turns of the same role that follow join it.
 */
class TurnList {
  readonly messages: AnthropicTurn[] = [];
  #merged: AnthropicTurn | undefined;

  add(turn: AnthropicTurn): void {
    if (turn.content.length === 0) return;
    const last = this.messages.at(-1);
    if (last?.role !== turn.role) this.messages.push(turn);
    else if (last === this.#merged) last.content.push(...turn.content);
    else {
      this.#merged = { role: turn.role, content: [...last.content, ...turn.content] };
      this.messages[this.messages.length - 1] = this.#merged;
    }
  }
}

/** Wire tools by tool list: an agent's frozen list is mapped and encoded once (`sharedWireList`). */
const wireTools = sharedWireList((tool: ToolSpec): AnthropicTool => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));

/**
 * The last tool, the system block and the last message's last block. The system block is built for
 * this request; the tools and the last turn may be shared with others (sharedWireList, turnOf), so the last
 * tool is replaced by a marked copy, and the last turn by a copy whose marked block is a copy too.
 */
function markCacheBreakpoints(body: AnthropicBody): void {
  const { tools } = body;
  const lastTool = tools?.at(-1);
  if (tools && lastTool) tools[tools.length - 1] = { ...lastTool, cache_control: EPHEMERAL };
  const system = body.system?.[0];
  if (system) system.cache_control = EPHEMERAL;
  const last = body.messages.length - 1;
  const turn = body.messages[last];
  if (!turn) return;
  // Thinking blocks cannot carry cache_control: mark the last block that can.
  const marked = turn.content.findLastIndex((block) => block.type !== "thinking" && block.type !== "redacted_thinking");
  const block = turn.content[marked];
  if (!block || block.type === "thinking" || block.type === "redacted_thinking") return;
  body.messages[last] = { ...turn, content: turn.content.map((other, at) => (at === marked ? { ...block, cache_control: EPHEMERAL } : other)) };
}
