import type { Message, ProtectedPart } from "@weft/sdk";
import { SUMMARY_HEADING } from "./summary-prompt.js";
import { estimateMessagesTokens } from "./token-estimate.js";

/**
 * What compaction never summarises, prunes or drops, so the model always sees its task and its last
 * step verbatim: the current turn's user message (with its content parts) and the latest assistant
 * message of this turn with its tool calls and their results (which carries the thinking blocks a
 * provider requires replayed). The system prompt leads the transcript and is rebuilt before every call.
 */
export interface ProtectedSet {
  /** The current turn's user message: the last one that is not a compaction summary. */
  input?: Message;
  /** The turn's latest assistant message and the tool results after it. */
  lastStep: Message[];
}

export function protectedSet(messages: readonly Message[]): ProtectedSet {
  let input = -1;
  for (let index = messages.length - 1; index >= 0 && input < 0; index--) {
    const message = messages[index];
    if (message?.role === "user" && !isSummary(message)) input = index;
  }
  let lastAssistant = -1;
  for (let index = messages.length - 1; index > input && lastAssistant < 0; index--) if (messages[index]?.role === "assistant") lastAssistant = index;
  // Before the turn's first model call there is no last step yet: the previous turn's answer is history.
  const lastStep = lastAssistant < 0 ? [] : messages.slice(lastAssistant).filter((message) => message.role === "assistant" || message.role === "tool");
  const message = messages[input];
  return message ? { input: message, lastStep } : { lastStep };
}

export function protectedMessages(set: ProtectedSet): Message[] {
  return set.input ? [set.input, ...set.lastStep] : [...set.lastStep];
}

export function isSummary(message: Message): boolean {
  return message.role === "user" && message.content.startsWith(SUMMARY_HEADING);
}

/** The parts a ContextOverflowError names, with their estimated sizes. */
export function protectedParts(messages: readonly Message[], toolTokens: number): ProtectedPart[] {
  const system = messages.filter((message) => message.role === "system");
  const set = protectedSet(messages);
  const parts: ProtectedPart[] = [{ what: "the system prompt and tool definitions", tokens: estimateMessagesTokens(system) + toolTokens }];
  if (set.input) parts.push({ what: "this turn's user message", tokens: estimateMessagesTokens([set.input]) });
  const [assistant] = set.lastStep;
  if (assistant?.role === "assistant") {
    const calls = assistant.toolCalls?.length ?? 0;
    const what = calls > 0 ? `the latest assistant message with its ${calls} tool call${calls === 1 ? "" : "s"} and their results` : "the latest assistant message";
    parts.push({ what, tokens: estimateMessagesTokens(set.lastStep) });
  }
  return parts;
}
