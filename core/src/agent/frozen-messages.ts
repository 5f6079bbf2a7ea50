import type { Message } from "@weft/sdk";

/**
 * A session's transcript is a list of values: weft never changes a message once it is in the
 * transcript (compaction replaces messages, it does not edit them). Each message is frozen as it
 * enters, with its lists of tool calls, parts and reasoning blocks, so what is derived from a
 * message (its JSON in the store, its token estimate, a provider's wire form) can be kept by its
 * identity, and code that would edit one in place fails loudly instead of going unseen. A tool call's
 * `arguments` and a reasoning block's `details` are left as they are: they are the model's values,
 * which tools read, and weft does not change them either.
 *
 * Messages are taken as they are, not copied: a transcript given to `startSession` is frozen too.
 */
export function freezeMessage<M extends Message>(message: M): M {
  if (Object.isFrozen(message)) return message;
  if (message.role === "assistant") {
    for (const call of message.toolCalls ?? []) Object.freeze(call);
    for (const block of message.reasoning ?? []) Object.freeze(block);
    Object.freeze(message.toolCalls);
    Object.freeze(message.reasoning);
    Object.freeze(message.stats);
  } else if (message.role !== "system" && message.parts) {
    for (const part of message.parts) Object.freeze(part);
    Object.freeze(message.parts);
  }
  return Object.freeze(message);
}

/** A new array of the messages, each frozen (see `freezeMessage`). */
export function freezeMessages(messages: readonly Message[]): Message[] {
  return messages.map(freezeMessage);
}
