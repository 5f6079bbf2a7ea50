import type { ChatRequest } from "@weft/sdk";
import type { ScriptedTurn } from "@weft/sdk/testing";
import { SUMMARY_INSTRUCTIONS } from "../summary-prompt.js";
import { estimateMessagesTokens, estimateToolSpecTokens } from "../token-estimate.js";

export interface LongTurnScript {
  /** Tool rounds before the final answer of each turn. */
  rounds: number;
  turns: number;
}

/** The prompt size a provider would report for a request, counted as the agent estimates it. */
export function requestTokens(request: ChatRequest): number {
  return estimateMessagesTokens(request.messages) + estimateToolSpecTokens(request.tools ?? []);
}

export const isSummaryRequest = (request: ChatRequest) => request.messages[0]?.content === SUMMARY_INSTRUCTIONS;

/**
 * A script for `turns` turns of `rounds` tool rounds each: every reply reports the request's size as
 * its prompt tokens; a summary request is answered with a short summary wherever it comes.
 */
export function longTurnScript({ rounds, turns }: LongTurnScript): ScriptedTurn[] {
  let round = 0;
  const reply = (request: ChatRequest): ScriptedTurn => {
    const stats = { promptTokens: requestTokens(request), outputTokens: 20 };
    if (isSummaryRequest(request)) return { text: "Goals: read the files. Done so far: several files read. Open questions: none.", stats };
    round++;
    if (round % (rounds + 1) === 0) return { text: `Turn done after ${rounds} rounds.`, stats };
    return { text: `Reading part ${round}.`, toolCalls: [{ name: "read", arguments: { path: `part-${round}.txt` } }], stats };
  };
  // Enough steps for every round plus a summary call after each of them.
  return Array.from({ length: 2 * turns * (rounds + 1) }, () => reply);
}
