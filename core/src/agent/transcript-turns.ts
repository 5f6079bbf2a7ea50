import type { Message, SystemMessage } from "@weft/sdk";

/**
 * A transcript cut where it can be cut safely: the leading system messages, then turns. A turn is one
 * user message, or one assistant message together with the tool results that answer its calls, so
 * keeping or dropping whole turns never separates a call from its result, and reasoning blocks stay
 * on the assistant message they belong to.
 */
export interface TranscriptTurns {
  system: SystemMessage[];
  turns: Message[][];
}

export function splitTurns(messages: readonly Message[]): TranscriptTurns {
  let start = 0;
  while (messages[start]?.role === "system") start++;
  const system = messages.slice(0, start) as SystemMessage[];
  const turns: Message[][] = [];
  for (const message of messages.slice(start)) {
    const current = turns[turns.length - 1];
    // Tool results (and any stray system note) stay with the turn before them.
    if (current && (message.role === "tool" || message.role === "system")) current.push(message);
    else turns.push([message]);
  }
  return { system, turns };
}

/** The turns before the last `keep`, and the last `keep`. */
export function olderAndRecent(turns: Message[][], keep: number): { older: Message[][]; recent: Message[][] } {
  const cut = Math.max(0, turns.length - keep);
  return { older: turns.slice(0, cut), recent: turns.slice(cut) };
}
