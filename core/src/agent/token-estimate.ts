import type { Message, ToolSpec } from "@weft/sdk";

/**
 * A rough token count (4 characters a token) for what was added since the provider last reported the
 * prompt size. It only has to be good enough to decide when to compact; reported counts win.
 */
const CHARS_PER_TOKEN = 4;
/** Role markers and separators every message costs on the wire. */
const MESSAGE_OVERHEAD = 4;

export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessageTokens(message: Message): number {
  let chars = message.content.length;
  if (message.role === "assistant") {
    for (const call of message.toolCalls ?? []) chars += call.name.length + JSON.stringify(call.arguments).length;
    for (const block of message.reasoning ?? []) chars += (block.text ?? "").length + (block.signature ?? "").length + (block.redacted ?? "").length;
  }
  return MESSAGE_OVERHEAD + Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimateMessagesTokens(messages: readonly Message[]): number {
  let total = 0;
  for (const message of messages) total += estimateMessageTokens(message);
  return total;
}

export function estimateToolSpecTokens(tools: readonly ToolSpec[]): number {
  return tools.length === 0 ? 0 : estimateTextTokens(JSON.stringify(tools));
}
