import type { ModelPricing } from "@weft/sdk/provider";

/**
 * US dollars per million tokens by model family, first match wins, from Anthropic's pricing page:
 * cache reads at 0.1× input, cache writes (5-minute) at 1.25× input. The Messages API reports no cost
 * and the Models API no prices, so this table is the source; the `prices` setting overrides it.
 */
const ANTHROPIC_PRICES: readonly { name: string; match: RegExp; input: number; output: number }[] = [
  { name: "claude-opus-4-5 and later", match: /^claude-opus-(?:4-[5-9]|[5-9])/, input: 5, output: 25 },
  { name: "claude-opus-4, claude-opus-4-1, claude-3-opus", match: /^claude-(?:opus-4|3-opus)/, input: 15, output: 75 },
  { name: "claude-sonnet-*, claude-3-7-sonnet, claude-3-5-sonnet", match: /^claude-(?:sonnet-|3-7-sonnet|3-5-sonnet)/, input: 3, output: 15 },
  { name: "claude-haiku-4-5 and later", match: /^claude-haiku-(?:4-[5-9]|[5-9])/, input: 1, output: 5 },
  { name: "claude-3-5-haiku", match: /^claude-3-5-haiku/, input: 0.8, output: 4 },
  { name: "claude-3-haiku", match: /^claude-3-haiku/, input: 0.25, output: 1.25 },
];

/** The model's prices, or undefined for a model the table does not know (no cost is reported then). */
export function anthropicPricing(model: string): ModelPricing | undefined {
  const row = ANTHROPIC_PRICES.find((candidate) => candidate.match.test(model));
  return row ? { input: row.input, output: row.output, cacheRead: row.input * 0.1, cacheWrite: row.input * 1.25 } : undefined;
}
