import type { CompactionState, Message, ToolMessage } from "@weft/sdk";
import { estimateMessageTokens } from "./token-estimate.js";

export interface PruneOptions {
  /** Tool results up to this many characters are left alone: a stub would save next to nothing. */
  minChars: number;
}

/** What the model reads in place of a pruned tool result: the call stays, the output is gone. */
export function prunedOutput(chars: number, attachments = 0): string {
  const also = attachments > 0 ? ` and ${attachments} attachment${attachments === 1 ? "" : "s"}` : "";
  return `[output removed to save context: ${chars} characters${also}; call the tool again if you still need it]`;
}

const PRUNED = /^\[output removed to save context: \d+ characters[;a-z0-9 ]*; call the tool again/;

/**
 * The model-free compaction stage: tool results outside the protected set are replaced by a stub,
 * oldest first, until the estimate reaches the target. The calls stay, so the model knows what it did.
 */
export function pruneToolResults(state: CompactionState, options: PruneOptions): CompactionState {
  if (state.estimatedTokens <= state.targetTokens) return state;
  const kept = new Set(state.protectedMessages);
  let estimatedTokens = state.estimatedTokens;
  let pruned = 0;
  const messages = state.messages.map((message): Message => {
    if (estimatedTokens <= state.targetTokens || message.role !== "tool" || kept.has(message)) return message;
    const attachments = (message.parts ?? []).filter((part) => part.type !== "text").length;
    if ((attachments === 0 && message.content.length <= options.minChars) || PRUNED.test(message.content)) return message;
    const stub: ToolMessage = { role: "tool", toolCallId: message.toolCallId, toolName: message.toolName, content: prunedOutput(message.content.length, attachments) };
    if (message.isError) stub.isError = true;
    estimatedTokens -= estimateMessageTokens(message) - estimateMessageTokens(stub);
    pruned++;
    return stub;
  });
  if (pruned === 0) return state;
  const report = { stage: "prune", removedTokens: state.estimatedTokens - estimatedTokens, messages: pruned };
  return { ...state, messages, estimatedTokens, stages: [...state.stages, report] };
}
