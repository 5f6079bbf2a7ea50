import type { StreamEvent } from "./chat-model.js";
import type { AssistantMessage, ReasoningBlock, Stats, ToolCall } from "./message.js";

/** How a reply ended, as the provider said it. */
export interface ReplyEnding {
  /** The provider's own stop reason, untouched. */
  stopReason?: string;
  /** Absent when the provider reported no usage. */
  stats?: Stats;
  /** Blocks the provider needs replayed, in the order they came. */
  reasoning?: ReasoningBlock[];
}

/**
 * Builds a provider's StreamEvents and the final AssistantMessage together, so the `done` message is
 * always exactly what the deltas added up to. A provider's stream parser calls `text`, `reasoning` and
 * `toolCall` as the wire delivers them and `finish` at the terminal event.
 */
export class ReplyBuilder {
  #text = "";
  readonly #toolCalls: ToolCall[] = [];

  /** @param model `provider/model` recorded on the message. */
  constructor(readonly model: string) {}

  get hasContent(): boolean {
    return this.#text.length > 0 || this.#toolCalls.length > 0;
  }

  /** A text delta event, or undefined for an empty delta (which carries nothing to show). */
  text(delta: string | undefined | null): StreamEvent | undefined {
    if (!delta) return undefined;
    this.#text += delta;
    return { type: "text", delta };
  }

  reasoning(delta: string | undefined | null): StreamEvent | undefined {
    return delta ? { type: "reasoning", delta } : undefined;
  }

  /** Call once a tool call is complete, its arguments parsed. */
  toolCall(call: ToolCall): StreamEvent {
    this.#toolCalls.push(call);
    return { type: "tool_call", call };
  }

  /** The last events: `usage` (when there are stats), then `done` with the whole message. */
  finish(ending: ReplyEnding): StreamEvent[] {
    const message: AssistantMessage = { role: "assistant", content: this.#text };
    if (this.#toolCalls.length > 0) message.toolCalls = [...this.#toolCalls];
    if (ending.reasoning && ending.reasoning.length > 0) message.reasoning = ending.reasoning;
    if (ending.stats) message.stats = ending.stats;
    if (ending.stopReason !== undefined) message.stopReason = ending.stopReason;
    message.model = this.model;
    const events: StreamEvent[] = [];
    if (ending.stats) events.push({ type: "usage", stats: ending.stats });
    events.push({ type: "done", message });
    return events;
  }
}
