import type { CompactionState, Message } from "@weft/sdk";
import { estimateMessagesTokens } from "./token-estimate.js";
import { compactableTurns, replaceMessages } from "./transcript-turns.js";

/**
 * The last-resort compaction stage: while the estimate is still over the threshold, the oldest
 * compactable turns (a summary first) are dropped whole. A transcript must open with a user message
 * after the system prompt, so an assistant turn left first goes too.
 */
export function dropOldestTurns(state: CompactionState): CompactionState {
  if (state.estimatedTokens < state.thresholdTokens) return state;
  const dropped: Message[] = [];
  let estimatedTokens = state.estimatedTokens;
  for (const turn of compactableTurns(state.messages, state.protectedMessages)) {
    if (estimatedTokens < state.thresholdTokens && opensWithUser(state.messages, dropped)) break;
    dropped.push(...turn);
    estimatedTokens -= estimateMessagesTokens(turn);
  }
  if (dropped.length === 0) return state;
  const report = { stage: "drop", removedTokens: state.estimatedTokens - estimatedTokens, messages: dropped.length };
  return { ...state, messages: replaceMessages(state.messages, dropped), estimatedTokens, stages: [...state.stages, report] };
}

/** Whether the first message after the system ones, once `dropped` is gone, is a user message. */
function opensWithUser(messages: readonly Message[], dropped: readonly Message[]): boolean {
  const gone = new Set(dropped);
  const first = messages.find((message) => message.role !== "system" && !gone.has(message));
  return !first || first.role === "user";
}
