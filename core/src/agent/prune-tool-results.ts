import type { CompactionState, Message, ToolMessage } from "@weft/sdk";
import { estimateMessageTokens } from "./token-estimate.js";
import { olderAndRecent, splitTurns } from "./transcript-turns.js";

export interface PruneOptions {
  /** Turns at the end of the transcript left untouched. */
  keepRecentTurns: number;
  /** Older tool results longer than this (in characters) are cut to their head and tail. */
  maxChars: number;
}

/** A result already cut is at most this much longer than `maxChars`, so it is never cut twice. */
const MARKER_ALLOWANCE = 200;

/** Head + marker + tail; the marker tells the model how much it no longer sees. */
export function cutToolOutput(content: string, maxChars: number): string {
  const head = Math.ceil(maxChars / 2);
  const tail = Math.floor(maxChars / 2);
  const cut = content.length - head - tail;
  return `${content.slice(0, head)}\n[... ${cut} characters cut from this tool result to save context ...]\n${tail > 0 ? content.slice(-tail) : ""}`;
}

/**
 * The model-free compaction stage: tool results outside the recent turns that are longer than
 * `maxChars` are cut to their head and tail. It runs only while the estimate is over the threshold.
 */
export function pruneToolResults(state: CompactionState, options: PruneOptions): CompactionState {
  if (state.estimatedTokens < state.thresholdTokens) return state;
  const { system, turns } = splitTurns(state.messages);
  const { older, recent } = olderAndRecent(turns, options.keepRecentTurns);
  let saved = 0;
  const pruned = older.map((turn) =>
    turn.map((message): Message => {
      if (message.role !== "tool" || message.content.length <= options.maxChars + MARKER_ALLOWANCE) return message;
      const cut: ToolMessage = { ...message, content: cutToolOutput(message.content, options.maxChars) };
      saved += estimateMessageTokens(message) - estimateMessageTokens(cut);
      return cut;
    }),
  );
  if (saved === 0) return state;
  return { ...state, messages: [...system, ...pruned.flat(), ...recent.flat()], estimatedTokens: state.estimatedTokens - saved };
}
