import type { AssistantMessage, ChatModel, ChatRequest, CompactionState, Message, UserMessage } from "@weft/sdk";
import { WeftError } from "@weft/sdk";
import { estimateMessagesTokens } from "./token-estimate.js";
import { olderAndRecent, splitTurns } from "./transcript-turns.js";

/** The first line of the user message that replaces the summarised turns. */
export const SUMMARY_HEADING = "Summary of the conversation so far:";

export const SUMMARY_INSTRUCTIONS = [
  "You summarise a conversation between a user and an AI assistant that uses tools, so that the assistant can carry on from your summary alone.",
  "Keep: what the user asked for and every constraint they set, in their own words where it matters; decisions taken; facts learned from tool results (names, paths, numbers, errors); what has been done; what remains to do.",
  "Leave out small talk and tool output that no longer matters. Write plain text without a preamble.",
].join("\n");

export interface SummariseOptions {
  /** Turns at the end of the transcript kept verbatim. */
  keepRecentTurns: number;
  /** Shapes the summary request like any other (the kernel's beforeModelCall). */
  prepare(request: ChatRequest, model: ChatModel): Promise<ChatRequest>;
  /** Told what the summary call cost, for the turn's metadata. */
  onReply?(reply: AssistantMessage, durationMs: number): void;
}

/**
 * The summarising compaction stage: when the estimate is still over the threshold, the turns before
 * the recent ones are replaced by one user message holding a summary the model writes. The system
 * messages and the recent turns stay verbatim. A failed or empty summary throws, so the compaction
 * leaves the transcript as it was.
 */
export async function summarise(state: CompactionState, options: SummariseOptions): Promise<CompactionState> {
  if (state.estimatedTokens < state.thresholdTokens) return state;
  const { system, turns } = splitTurns(state.messages);
  const { older, recent } = olderAndRecent(turns, options.keepRecentTurns);
  if (older.length === 0) return state;
  const summarised = older.flat();
  const request = await options.prepare(summaryRequest(summarised), state.model);
  const started = performance.now();
  const reply = await state.model.chat({ ...request, signal: state.signal });
  options.onReply?.(reply, performance.now() - started);
  const text = reply.content.trim();
  if (!text) throw new WeftError("PROVIDER_ERROR", `${state.model.provider}/${state.model.model} returned an empty summary`);
  const summary: UserMessage = { role: "user", content: `${SUMMARY_HEADING}\n\n${text}` };
  return {
    ...state,
    messages: [...system, summary, ...recent.flat()],
    estimatedTokens: state.estimatedTokens - estimateMessagesTokens(summarised) + estimateMessagesTokens([summary]),
  };
}

export function summaryRequest(messages: readonly Message[]): ChatRequest {
  return {
    messages: [
      { role: "system", content: SUMMARY_INSTRUCTIONS },
      { role: "user", content: `Summarise this conversation:\n\n<transcript>\n${renderTranscript(messages)}\n</transcript>` },
    ],
  };
}

/** The transcript as plain text: the summariser reads it, it never calls the tools itself. */
export function renderTranscript(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        parts.push(`[system]\n${message.content}`);
        break;
      case "user":
        parts.push(`[user]\n${message.content}`);
        break;
      case "assistant":
        if (message.content) parts.push(`[assistant]\n${message.content}`);
        for (const call of message.toolCalls ?? []) parts.push(`[assistant called ${call.name}]\n${JSON.stringify(call.arguments)}`);
        break;
      case "tool":
        parts.push(`[${message.toolName} ${message.isError ? "failed" : "returned"}]\n${message.content}`);
        break;
    }
  }
  return parts.join("\n\n");
}
