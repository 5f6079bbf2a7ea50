import type { AssistantMessage, Message, ToolSpec } from "@weft/sdk";

/**
 * A rough token count (4 characters a token) for what was added since the provider last reported the
 * prompt size. It only has to be good enough to decide when to compact; reported counts win.
 */
const CHARS_PER_TOKEN = 4;
/** Role markers and separators every message costs on the wire. */
const MESSAGE_OVERHEAD = 4;
/** An image or a PDF page as providers bill it, roughly (Anthropic: ~1600 tokens for a 1092×1092 image). */
const MEDIA_PART_TOKENS = 1600;

/**
 * Estimates of frozen assistant messages with tool calls or reasoning (frozen messages cannot change,
 * frozen-messages.ts): their arguments' JSON is measured once, not before every turn. Any other message
 * is measured by its lengths each time, which costs less than keeping it here: a WeakMap entry for each
 * of a round's hundred tool results, estimated once, cost more than the whole estimate.
 */
const estimates = new WeakMap<Message, number>();

export function estimateMessageTokens(message: Message): number {
  if (message.role === "assistant" && (message.toolCalls?.length || message.reasoning?.length)) return assistantTokens(message);
  return tokensOf(message.content.length, mediaParts(message));
}

function assistantTokens(message: AssistantMessage): number {
  const known = estimates.get(message);
  if (known !== undefined) return known;
  let chars = message.content.length;
  for (const call of message.toolCalls ?? []) chars += call.name.length + JSON.stringify(call.arguments).length;
  for (const block of message.reasoning ?? []) chars += (block.text ?? "").length + (block.signature ?? "").length + (block.redacted ?? "").length;
  const tokens = tokensOf(chars, 0);
  if (Object.isFrozen(message)) estimates.set(message, tokens);
  return tokens;
}

function tokensOf(chars: number, media: number): number {
  return MESSAGE_OVERHEAD + Math.ceil(chars / CHARS_PER_TOKEN) + media * MEDIA_PART_TOKENS;
}

/** The images and documents of a user or tool message. */
function mediaParts(message: Message): number {
  if ((message.role !== "user" && message.role !== "tool") || !message.parts) return 0;
  let media = 0;
  for (const part of message.parts) if (part.type !== "text") media++;
  return media;
}

/** The tokens of `messages` from index `from` on (the compaction check's tail after a reported count, with no copy of it). */
export function estimateMessagesTokens(messages: readonly Message[], from = 0): number {
  let total = 0;
  for (let index = from; index < messages.length; index++) {
    const message = messages[index];
    if (message) total += estimateMessageTokens(message);
  }
  return total;
}

/** Estimates of frozen tool lists: a session's calls share one list until its tools change (tool-specs.ts). */
const listEstimates = new WeakMap<readonly ToolSpec[], number>();

/**
 * The tokens of the tools' JSON, `[spec,spec,...]`, counted from each spec's own JSON length, which is
 * kept per input schema: the same tools are measured before every turn's first model call, and
 * stringifying every schema each time was the bulk of that check. A frozen list's total is kept too,
 * so a thousand tools are not summed again on every turn.
 */
export function estimateToolSpecTokens(tools: readonly ToolSpec[]): number {
  if (tools.length === 0) return 0;
  const known = listEstimates.get(tools);
  if (known !== undefined) return known;
  let chars = 1 + tools.length; // the brackets and the commas between specs
  for (const tool of tools) chars += specLength(tool);
  const tokens = Math.ceil(chars / CHARS_PER_TOKEN);
  if (Object.isFrozen(tools)) listEstimates.set(tools, tokens);
  return tokens;
}

interface MeasuredSpec {
  name: string;
  description: string;
  length: number;
}

const measured = new WeakMap<object, MeasuredSpec>();

function specLength(tool: ToolSpec): number {
  const known = measured.get(tool.inputSchema);
  if (known && known.name === tool.name && known.description === tool.description) return known.length;
  const length = JSON.stringify(tool).length;
  measured.set(tool.inputSchema, { name: tool.name, description: tool.description, length });
  return length;
}
