import type { StreamEvent } from "./chat-model.js";
import type { Stats } from "./message.js";

/**
 * What a model accepts, as its provider reported it or a fallback table says: a provider shapes
 * every request by it, so nothing is sent that the model would refuse.
 */
export interface ModelCapabilities {
  /** Input context window in tokens, when known. */
  contextWindow?: number;
  /** The largest output token limit the model takes, when known. */
  maxOutputTokens?: number;
  /** Whether the model reasons (thinks) when asked: effort is sent only when it does. */
  reasoning: boolean;
  /** Whether user messages and tool results may carry images. */
  images: boolean;
  /** Whether they may carry PDF documents. */
  documents: boolean;
  /** Whether the provider's native structured output (a JSON schema the reply must follow) works. */
  structuredOutput: boolean;
  /** Prices per million tokens, for cost where the provider does not report it. */
  pricing?: ModelPricing;
  /** The sampling parameters the model takes (`temperature`, `top_p`, `top_k`), where the provider lists them. */
  samplingParameters?: readonly string[];
}

/** US dollars per million tokens. */
export interface ModelPricing {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * The cost of one reply from its token counts. `promptTokens` includes cached tokens, which are
 * priced at the cache rates where given (else as input).
 */
export function costFromPricing(stats: Stats, pricing: ModelPricing): number {
  const cacheRead = stats.cacheReadTokens;
  const cacheWrite = stats.cacheWriteTokens;
  const uncached = Math.max(0, stats.promptTokens - cacheRead - cacheWrite);
  const dollars =
    uncached * pricing.input +
    cacheRead * (pricing.cacheRead ?? pricing.input) +
    cacheWrite * (pricing.cacheWrite ?? pricing.input) +
    stats.outputTokens * pricing.output;
  return dollars / 1_000_000;
}

/** Where a model's capabilities came from. */
export type CapabilitySource = "provider" | "fallback";

export interface ResolvedCapabilities<C extends ModelCapabilities> {
  capabilities: C;
  source: CapabilitySource;
  /** Why the provider's answer was not used, when the fallback was. */
  reason?: string;
}

/**
 * Capabilities per model, looked up once (lazily, on the first call that depends on them) and
 * cached. A lookup that fails never fails a chat: the fallback answers, and it is cached too, so
 * an endpoint without a models API is asked once, not every call.
 */
export class CapabilityCache<C extends ModelCapabilities> {
  readonly #entries = new Map<string, Promise<ResolvedCapabilities<C>>>();

  constructor(
    readonly lookup: (model: string) => Promise<C | undefined>,
    readonly fallback: (model: string) => C,
  ) {}

  get(model: string): Promise<ResolvedCapabilities<C>> {
    let entry = this.#entries.get(model);
    if (!entry) {
      entry = this.#resolve(model);
      this.#entries.set(model, entry);
    }
    return entry;
  }

  async #resolve(model: string): Promise<ResolvedCapabilities<C>> {
    try {
      const found = await this.lookup(model);
      if (found) return { capabilities: found, source: "provider" };
      return { capabilities: this.fallback(model), source: "fallback", reason: "the provider does not describe this model" };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { capabilities: this.fallback(model), source: "fallback", reason };
    }
  }
}

/**
 * Adds `costUsd` to the usage and the final message of a reply whose provider reports no cost, from
 * a price table (a local model's all-zero prices report a cost of 0, which is a cost too).
 */
export async function* pricedEvents(events: AsyncIterable<StreamEvent>, pricing: ModelPricing | undefined): AsyncGenerator<StreamEvent> {
  for await (const event of events) {
    if (pricing && event.type === "usage" && event.stats.costUsd === undefined) yield { type: "usage", stats: { ...event.stats, costUsd: costFromPricing(event.stats, pricing) } };
    else if (pricing && event.type === "done" && event.message.stats && event.message.stats.costUsd === undefined) {
      yield { type: "done", message: { ...event.message, stats: { ...event.message.stats, costUsd: costFromPricing(event.message.stats, pricing) } } };
    } else yield event;
  }
}
