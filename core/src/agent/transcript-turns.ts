import type { Message, SystemMessage } from "@weft/sdk";

/**
 * A transcript cut where it can be cut safely: the leading system messages, then turns. A turn is one
 * user message, or one assistant message together with the tool results that answer its calls, so
 * keeping or dropping whole turns never separates a call from its result, and reasoning blocks stay
 * on the assistant message they belong to.
 */
interface TranscriptTurns {
  system: SystemMessage[];
  turns: Message[][];
}

function splitTurns(messages: readonly Message[]): TranscriptTurns {
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

/** The turns a compaction may summarise or drop, oldest first: everything but the system messages and the protected ones. */
export function compactableTurns(messages: readonly Message[], protectedMessages: readonly Message[]): Message[][] {
  const kept = new Set(protectedMessages);
  return splitTurns(messages.filter((message) => !kept.has(message))).turns;
}

/** `messages` without `removed`; `replacement` takes the place of the last removed message. */
export function replaceMessages(messages: readonly Message[], removed: readonly Message[], replacement?: Message): Message[] {
  const gone = new Set(removed);
  const last = removed[removed.length - 1];
  const result: Message[] = [];
  for (const message of messages) {
    if (!gone.has(message)) result.push(message);
    else if (replacement && message === last) result.push(replacement);
  }
  return result;
}
