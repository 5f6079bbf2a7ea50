import { parseToolArguments, type ReasoningBlock, type Stats, type StreamEvent } from "@weft/sdk";
import { ReplyBuilder, readProviderFault, streamFaultError, truncatedStreamError } from "@weft/sdk/provider";

/** The end-of-stream sentinel of Chat Completions streams. */
export const DONE = "[DONE]";

export interface ChatCompletionsStreamContext {
  provider: string;
  /** `provider/model`, recorded on the message. */
  model: string;
  retries: number;
  /** The cost of a reply the provider reported no cost for (a price table); OpenRouter's `usage.cost` wins. */
  costOf?: (stats: Stats) => number;
}

interface ToolSlot {
  index: number;
  id: string;
  name: string;
  arguments: string;
}

/**
 * Turns Chat Completions stream chunks (parsed `data:` payloads, and the `[DONE]` sentinel) into
 * StreamEvents. Tool-call fragments are merged by `index` (which may start anywhere), a later
 * fragment's empty `id` or `name` never overwriting an earlier one; the calls are emitted whole once
 * the reply finishes. Reasoning comes from `reasoning_content`, `reasoning` or `reasoning_details`.
 * The stream is complete at `[DONE]`, or at its end after a `finish_reason`; a chunk with a
 * top-level `error` fails it.
 *
 * Synchronous, so a model's stream runs it inside its own loop over the body: a generator per stage
 * costs several promise hops for every event on a fast connection.
 */
export class ChatCompletionsDecoder {
  readonly #context: ChatCompletionsStreamContext;
  readonly #reply: ReplyBuilder;
  readonly #slots = new Map<number, ToolSlot>();
  readonly #details = new ReasoningDetails();
  #reasoningText = "";
  #finishReason: string | undefined;
  #stats: Stats | undefined;
  #done = false;

  constructor(context: ChatCompletionsStreamContext) {
    this.#context = context;
    this.#reply = new ReplyBuilder(context.model);
  }

  /** Whether `[DONE]` has come: nothing after it is read. */
  get done(): boolean {
    return this.#done;
  }

  /** The events one chunk adds, often none; throws on an error chunk. */
  push(chunk: unknown): readonly StreamEvent[] {
    if (chunk === DONE) {
      this.#done = true;
      return NONE;
    }
    if (this.#done || !isObject(chunk)) return NONE;
    if (chunk.error !== undefined && chunk.error !== null) {
      const code = isObject(chunk.error) ? chunk.error.code : undefined;
      throw streamFaultError(this.#context.provider, readProviderFault(chunk), this.#context.retries, typeof code === "number" ? code : undefined);
    }
    if (isObject(chunk.usage)) this.#stats = toStats(chunk.usage, this.#context.costOf);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isObject(choice)) return NONE;
    if (choice.finish_reason === "error") {
      // Some servers end a failed generation this way, with no error object to say why.
      const fault = isObject(choice.error) ? readProviderFault({ error: choice.error }) : { message: 'the reply ended with finish_reason "error" and no details' };
      throw streamFaultError(this.#context.provider, fault, this.#context.retries);
    }
    const delta = isObject(choice.delta) ? choice.delta : {};
    const parts = Array.isArray(delta.content) ? readContentParts(delta.content) : undefined;
    const spoken = firstString(delta.reasoning_content, delta.reasoning, parts?.thinking);
    const fragments: unknown[] = Array.isArray(delta.reasoning_details) ? delta.reasoning_details : [];
    if (fragments.length > 0) this.#details.add(fragments);
    // OpenRouter repeats `reasoning` in `reasoning_details`: show the text once, keep the details.
    const thought = spoken ?? (fragments.length > 0 ? fragments.map((detail) => (isObject(detail) ? firstString(detail.text, detail.summary) ?? "" : "")).join("") : "");
    const reasoning = this.#reply.reasoning(thought);
    if (reasoning) this.#reasoningText += thought;
    const text = this.#reply.text(typeof delta.content === "string" ? delta.content : parts?.text);
    if (Array.isArray(delta.tool_calls)) for (const fragment of delta.tool_calls) if (isObject(fragment)) mergeToolCall(this.#slots, fragment);
    if (typeof choice.finish_reason === "string" && choice.finish_reason !== "") this.#finishReason = choice.finish_reason;
    if (reasoning) return text ? [reasoning, text] : [reasoning];
    return text ? [text] : NONE;
  }

  /** The body has ended: the tool calls, `usage` and `done`; throws when the reply is incomplete. */
  finish(): StreamEvent[] {
    const context = this.#context;
    if (!this.#done && this.#finishReason === undefined) throw truncatedStreamError(context.provider, `${DONE} or a finish_reason`, context.retries);
    const events: StreamEvent[] = [];
    for (const slot of [...this.#slots.values()].sort((a, b) => a.index - b.index)) {
      events.push(this.#reply.toolCall({ id: slot.id, name: slot.name, ...parseToolArguments(slot.arguments) }));
    }
    const merged = this.#details.list();
    const text = this.#reasoningText;
    const blocks: ReasoningBlock[] =
      text || merged.length > 0 ? [{ provider: context.provider, ...(text ? { text } : {}), ...(merged.length > 0 ? { details: merged } : {}) }] : [];
    events.push(...this.#reply.finish({ stopReason: this.#finishReason, stats: this.#stats, reasoning: blocks }));
    return events;
  }
}

const NONE: readonly StreamEvent[] = Object.freeze([]);

/** `ChatCompletionsDecoder` over an iterable of chunks. */
export async function* decodeChatCompletionsStream(chunks: AsyncIterable<unknown> | Iterable<unknown>, context: ChatCompletionsStreamContext): AsyncGenerator<StreamEvent> {
  const decoder = new ChatCompletionsDecoder(context);
  for await (const chunk of chunks) {
    for (const event of decoder.push(chunk)) yield event;
    if (decoder.done) break;
  }
  for (const event of decoder.finish()) yield event;
}

/** A non-streamed completion, as the chunks (and `[DONE]`) a stream of it would have sent. */
export function completionAsChunks(completion: Record<string, unknown>): unknown[] {
  const choices = Array.isArray(completion.choices) ? completion.choices : [];
  const chunk = {
    ...completion,
    choices: choices.map((choice: Record<string, any>) => {
      const message = isObject(choice.message) ? choice.message : {};
      const toolCalls = Array.isArray(message.tool_calls) ? message.tool_calls.map((call: object, index: number) => ({ index, ...call })) : undefined;
      return { index: choice.index, delta: { ...message, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: choice.finish_reason };
    }),
  };
  return [chunk, DONE];
}

function mergeToolCall(slots: Map<number, ToolSlot>, fragment: Record<string, any>): void {
  const fn = isObject(fragment.function) ? fragment.function : {};
  const index = typeof fragment.index === "number" ? fragment.index : indexWithoutOne(slots, fragment.id);
  const slot = slots.get(index);
  if (!slot) {
    slots.set(index, { index, id: stringOr(fragment.id, ""), name: stringOr(fn.name, ""), arguments: stringOr(fn.arguments, "") });
    return;
  }
  if (!slot.id && typeof fragment.id === "string") slot.id = fragment.id;
  if (!slot.name && typeof fn.name === "string") slot.name = fn.name;
  if (typeof fn.arguments === "string") slot.arguments += fn.arguments;
}

/** Servers that omit `index`: a new id opens a new call, anything else continues the last one. */
function indexWithoutOne(slots: Map<number, ToolSlot>, id: unknown): number {
  const last = [...slots.values()].at(-1);
  if (typeof id === "string" && id !== "") {
    for (const slot of slots.values()) if (slot.id === id) return slot.index;
    return last ? last.index + 1 : 0;
  }
  return last?.index ?? 0;
}

/**
 * `reasoning_details` as the whole message would carry them: streamed fragments of one detail (same
 * `index`) have their text joined; everything else is kept as sent.
 */
class ReasoningDetails {
  readonly #byIndex = new Map<unknown, Record<string, unknown>>();
  readonly #order: Record<string, unknown>[] = [];

  add(fragments: unknown[]): void {
    for (const fragment of fragments) {
      if (!isObject(fragment)) continue;
      const existing = fragment.index === undefined ? undefined : this.#byIndex.get(fragment.index);
      if (!existing || existing.type !== fragment.type) {
        const copy = { ...fragment };
        if (fragment.index !== undefined) this.#byIndex.set(fragment.index, copy);
        this.#order.push(copy);
        continue;
      }
      for (const [key, value] of Object.entries(fragment)) {
        if ((key === "text" || key === "summary" || key === "data") && typeof value === "string" && typeof existing[key] === "string") existing[key] += value;
        else if (value !== null && value !== undefined) existing[key] = value;
      }
    }
  }

  list(): unknown[] {
    return this.#order;
  }
}

/**
 * `content` given as an array of parts (Mistral's magistral, some proxies): text parts are the
 * reply, `thinking` / `reasoning` parts its reasoning (their text may itself be a list of parts).
 */
function readContentParts(parts: unknown[]): { text: string; thinking: string } {
  let text = "";
  let thinking = "";
  for (const part of parts) {
    if (typeof part === "string") text += part;
    else if (!isObject(part)) continue;
    else if (part.type === "text" && typeof part.text === "string") text += part.text;
    else if (part.type === "thinking" || part.type === "reasoning") thinking += partText(part.thinking ?? part.reasoning ?? part.text);
  }
  return { text, thinking };
}

function partText(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map((item) => (isObject(item) && typeof item.text === "string" ? item.text : typeof item === "string" ? item : "")).join("");
  return "";
}

function toStats(usage: Record<string, any>, costOf?: (stats: Stats) => number): Stats {
  const promptTokens = numberOr(usage.prompt_tokens, 0);
  const outputTokens = numberOr(usage.completion_tokens, 0);
  const prompt = isObject(usage.prompt_tokens_details) ? usage.prompt_tokens_details : {};
  const completion = isObject(usage.completion_tokens_details) ? usage.completion_tokens_details : {};
  const stats: Stats = {
    promptTokens,
    outputTokens,
    // As the provider gives it: xAI counts reasoning in the total but not in completion_tokens.
    totalTokens: numberOr(usage.total_tokens, promptTokens + outputTokens),
    // OpenAI nests cached tokens in prompt_tokens_details; DeepSeek says prompt_cache_hit_tokens;
    // some servers (Moonshot, vLLM builds) put cached_tokens at the top level.
    cacheReadTokens: numberOr(prompt.cached_tokens, numberOr(usage.prompt_cache_hit_tokens, numberOr(usage.cached_tokens, 0))),
    cacheWriteTokens: numberOr(prompt.cache_write_tokens, 0),
  };
  if (typeof completion.reasoning_tokens === "number") stats.reasoningTokens = completion.reasoning_tokens;
  if (typeof usage.cost === "number") stats.costUsd = usage.cost;
  else if (costOf) stats.costUsd = costOf(stats);
  return stats;
}

function firstString(...values: unknown[]): string | undefined {
  for (const value of values) if (typeof value === "string" && value !== "") return value;
  return undefined;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" ? value : fallback;
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
