import { isRecord } from "@weft/sdk";
import type { ModelCapabilities } from "@weft/sdk/provider";

/** Levels `output_config.effort` takes (weft's ladder; Anthropic's `xhigh` is not on it). */
export type AnthropicEffort = "low" | "medium" | "high" | "max";

/**
 * What shapes a Messages API request for one model.
 * - `thinking`: `adaptive` (`thinking: {type: "adaptive"}` + `output_config.effort`), `enabled`
 *   (`thinking: {type: "enabled", budget_tokens}`), or `none`.
 * - `effortLevels`: the `output_config.effort` values the model accepts; empty when it takes none.
 */
export interface AnthropicCapabilities extends ModelCapabilities {
  thinking: "adaptive" | "enabled" | "none";
  effortLevels: readonly AnthropicEffort[];
}

const FULL_EFFORT: readonly AnthropicEffort[] = ["low", "medium", "high", "max"];
const NO_MAX_EFFORT: readonly AnthropicEffort[] = ["low", "medium", "high"];

interface Family {
  /** What the table row is, for the README and tests. */
  name: string;
  match: RegExp;
  thinking: AnthropicCapabilities["thinking"];
  effortLevels: readonly AnthropicEffort[];
  maxOutputTokens: number;
  documents: boolean;
  structuredOutput: boolean;
}

/**
 * The fallback when the Models API cannot be asked (a proxy without it, no permission, a network
 * failure): one row per model family, first match wins. From Anthropic's docs (see the README):
 * adaptive thinking and `max` effort from Opus 4.6 / Sonnet 4.6 on, Opus 4.7 and later adaptive
 * only; Opus 4.5 takes effort (no `max`) with budget thinking; the 4.x and 3.7 models before it
 * budget thinking and no effort; Claude 3.5 and older no thinking.
 */
export const ANTHROPIC_FAMILIES: readonly Family[] = [
  { name: "claude-opus-4-7 and later, claude-*-5, mythos, fable", match: /^claude-(?:(?:opus-4-[7-9])|(?:[a-z]+-[5-9])|mythos|fable)/, thinking: "adaptive", effortLevels: FULL_EFFORT, maxOutputTokens: 128_000, documents: true, structuredOutput: true },
  { name: "claude-opus-4-6", match: /^claude-opus-4-6/, thinking: "adaptive", effortLevels: FULL_EFFORT, maxOutputTokens: 128_000, documents: true, structuredOutput: true },
  { name: "claude-sonnet-4-6", match: /^claude-sonnet-4-6/, thinking: "adaptive", effortLevels: FULL_EFFORT, maxOutputTokens: 64_000, documents: true, structuredOutput: true },
  { name: "claude-opus-4-5", match: /^claude-opus-4-5/, thinking: "enabled", effortLevels: NO_MAX_EFFORT, maxOutputTokens: 64_000, documents: true, structuredOutput: true },
  { name: "claude-sonnet-4-5", match: /^claude-sonnet-4-5/, thinking: "enabled", effortLevels: [], maxOutputTokens: 64_000, documents: true, structuredOutput: true },
  { name: "claude-haiku-4-5", match: /^claude-haiku-4-5/, thinking: "enabled", effortLevels: [], maxOutputTokens: 64_000, documents: true, structuredOutput: true },
  { name: "claude-opus-4-1", match: /^claude-opus-4-1/, thinking: "enabled", effortLevels: [], maxOutputTokens: 32_000, documents: true, structuredOutput: true },
  { name: "claude-opus-4", match: /^claude-opus-4(?:-0|-\d{8}|$)/, thinking: "enabled", effortLevels: [], maxOutputTokens: 32_000, documents: true, structuredOutput: false },
  { name: "claude-sonnet-4", match: /^claude-sonnet-4(?:-0|-\d{8}|$)/, thinking: "enabled", effortLevels: [], maxOutputTokens: 64_000, documents: true, structuredOutput: false },
  { name: "claude-3-7-sonnet", match: /^claude-3-7-sonnet/, thinking: "enabled", effortLevels: [], maxOutputTokens: 64_000, documents: true, structuredOutput: false },
  { name: "claude-3-5-*", match: /^claude-3-5-/, thinking: "none", effortLevels: [], maxOutputTokens: 8_192, documents: true, structuredOutput: false },
  { name: "claude-3-*", match: /^claude-3-/, thinking: "none", effortLevels: [], maxOutputTokens: 4_096, documents: false, structuredOutput: false },
];

/** Every Claude model since Claude 3 reads images; all have a 200k window unless the Models API says more. */
const CONTEXT_WINDOW = 200_000;

/**
 * The fallback for a model the table does not know: no thinking fields and no effort, which every
 * Messages API model accepts; a request is never refused for what it leaves out.
 */
const UNKNOWN: AnthropicCapabilities = { thinking: "none", effortLevels: [], reasoning: false, images: true, documents: true, structuredOutput: false };

export function anthropicFallbackCapabilities(model: string): AnthropicCapabilities {
  const family = ANTHROPIC_FAMILIES.find((row) => row.match.test(model));
  if (!family) return { ...UNKNOWN };
  return {
    thinking: family.thinking,
    effortLevels: family.effortLevels,
    reasoning: family.thinking !== "none",
    images: true,
    documents: family.documents,
    structuredOutput: family.structuredOutput,
    contextWindow: CONTEXT_WINDOW,
    maxOutputTokens: family.maxOutputTokens,
  };
}

/**
 * Reads a Models API `ModelInfo` (`GET /v1/models/{id}`): `capabilities.thinking.types`,
 * `capabilities.effort.<level>.supported`, `image_input`, `pdf_input`, `structured_outputs`,
 * `max_input_tokens`, `max_tokens`. Undefined when the answer has no capabilities object (older
 * API versions, proxies): the caller falls back to the table.
 */
export function readModelInfo(info: unknown): AnthropicCapabilities | undefined {
  if (!isRecord(info) || !isRecord(info.capabilities)) return undefined;
  const caps = info.capabilities;
  const thinking = isRecord(caps.thinking) ? caps.thinking : {};
  const types = isRecord(thinking.types) ? thinking.types : {};
  const effort = isRecord(caps.effort) ? caps.effort : {};
  const mode: AnthropicCapabilities["thinking"] = !supported(thinking) ? "none" : supported(types.adaptive) ? "adaptive" : supported(types.enabled) ? "enabled" : "none";
  const effortLevels = supported(effort) ? FULL_EFFORT.filter((level) => supported(effort[level])) : [];
  const result: AnthropicCapabilities = {
    thinking: mode,
    effortLevels,
    reasoning: mode !== "none",
    images: supported(caps.image_input),
    documents: supported(caps.pdf_input),
    structuredOutput: supported(caps.structured_outputs),
  };
  if (typeof info.max_input_tokens === "number") result.contextWindow = info.max_input_tokens;
  if (typeof info.max_tokens === "number") result.maxOutputTokens = info.max_tokens;
  return result;
}

function supported(value: unknown): boolean {
  return isRecord(value) && value.supported === true;
}
