import type { AssistantMessage, ChatModel, ChatRequest, CompactionState, FeedbackEvent, UserMessage } from "@weft/sdk";
import { WeftError, emptyStats, errorMessage } from "@weft/sdk";
import { isSummary } from "./protected-set.js";
import { SUMMARY_HEADING, summaryRequest } from "./summary-prompt.js";
import { estimateMessagesTokens } from "./token-estimate.js";
import { compactableTurns, replaceMessages } from "./transcript-turns.js";

export interface SummariseOptions {
  /** Compactable turns at the end kept verbatim, as far as half the target allows. */
  keepRecentTurns: number;
  /** Shapes the summary request like any other (the kernel's beforeModelCall). */
  prepare(request: ChatRequest, model: ChatModel): Promise<ChatRequest>;
  /** Told what the summary call cost, for the turn's metadata. */
  onReply?(reply: AssistantMessage, durationMs: number): void;
  /** The summary call's model events, and a failure, go where the turn's go. */
  emit(event: FeedbackEvent): void;
}

/** Characters a token, as the estimate counts them; the summary request is cut to fit the window with it. */
const CHARS_PER_TOKEN = 4;
/** Of the window, what the summary request may fill; the rest is the summary's own room. */
const SUMMARY_REQUEST_SHARE = 0.75;

/**
 * The summarising compaction stage: while the estimate is over the target, the compactable turns
 * (all but the protected set) before the recent ones are replaced by one user message holding a
 * summary the model writes; it takes the place of the last turn it replaces. A failed or empty summary
 * is reported (`compaction.failed`) and leaves the transcript to the next stage.
 */
export async function summarise(state: CompactionState, options: SummariseOptions): Promise<CompactionState> {
  if (state.estimatedTokens <= state.targetTokens) return state;
  const turns = compactableTurns(state.messages, state.protectedMessages);
  const older = turns.slice(0, turns.length - recentTurns(state, turns, options.keepRecentTurns));
  const summarised = older.flat();
  // A lone summary has nothing left to gain from being summarised again.
  const [first] = summarised;
  if (!first || (summarised.length === 1 && isSummary(first))) return state;
  const ref = `${state.model.provider}/${state.model.model}`;
  let reply: AssistantMessage;
  try {
    const maxChars = state.contextWindow > 0 ? state.contextWindow * SUMMARY_REQUEST_SHARE * CHARS_PER_TOKEN : undefined;
    const request = await options.prepare(summaryRequest(summarised, maxChars), state.model);
    options.emit({ type: "model.request", model: ref, messages: request.messages.length, tools: 0, purpose: "summary" });
    const started = performance.now();
    reply = await state.model.chat({ ...request, signal: state.signal });
    const durationMs = performance.now() - started;
    options.onReply?.(reply, durationMs);
    options.emit({ type: "model.response", model: ref, stats: reply.stats ?? emptyStats(), durationMs, ...(reply.stopReason !== undefined ? { stopReason: reply.stopReason } : {}), purpose: "summary" });
    if (!reply.content.trim()) throw new WeftError("PROVIDER_ERROR", `${ref} returned an empty summary`);
  } catch (error) {
    if (state.signal.aborted) throw error;
    options.emit({ type: "compaction.failed", reason: `the summary call failed (${errorMessage(error)}); older turns are dropped instead if the prompt is still too large` });
    return state;
  }
  const summary: UserMessage = { role: "user", content: `${SUMMARY_HEADING}\n\n${reply.content.trim()}` };
  const removedTokens = estimateMessagesTokens(summarised) - estimateMessagesTokens([summary]);
  const report = { stage: "summarise", removedTokens, messages: summarised.length, summaryUsage: reply.stats ?? emptyStats() };
  return { ...state, messages: replaceMessages(state.messages, summarised, summary), estimatedTokens: state.estimatedTokens - removedTokens, stages: [...state.stages, report] };
}

/**
 * How many of the last turns stay verbatim: up to `keep`, newest first, while they and everything that
 * is not summarised fill at most half the target; the other half is the summary's room.
 */
function recentTurns(state: CompactionState, turns: readonly (readonly CompactionState["messages"][number][])[], keep: number): number {
  const compactable = turns.reduce((sum, turn) => sum + estimateMessagesTokens(turn), 0);
  let used = Math.max(0, state.estimatedTokens - compactable);
  let kept = 0;
  for (let index = turns.length - 1; index >= 0 && kept < keep; index--) {
    const turn = turns[index];
    if (!turn) break;
    used += estimateMessagesTokens(turn);
    if (used > state.targetTokens / 2) break;
    kept++;
  }
  return kept;
}
