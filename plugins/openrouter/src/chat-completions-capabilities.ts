import { isRecord } from "@weft/sdk";
import type { ModelCapabilities, ModelPricing } from "@weft/sdk/provider";

/**
 * Reads one model of OpenRouter's `GET /api/v1/models` listing: `supported_parameters` (reasoning,
 * structured_outputs), `architecture.input_modalities` (image, file), `context_length`,
 * `top_provider.max_completion_tokens` and `pricing` (US dollars per token, as strings).
 */
export function readOpenRouterModel(entry: unknown): ModelCapabilities | undefined {
  if (!isRecord(entry)) return undefined;
  const parameters = stringList(entry.supported_parameters);
  const architecture = isRecord(entry.architecture) ? entry.architecture : {};
  const inputs = stringList(architecture.input_modalities);
  const capabilities: ModelCapabilities = {
    reasoning: parameters.includes("reasoning"),
    images: inputs.includes("image"),
    documents: inputs.includes("file"),
    // `response_format` alone is JSON mode without a schema; only `structured_outputs` takes json_schema.
    structuredOutput: parameters.includes("structured_outputs"),
    samplingParameters: parameters.filter((parameter) => SAMPLING.has(parameter)),
  };
  if (typeof entry.context_length === "number") capabilities.contextWindow = entry.context_length;
  const top = isRecord(entry.top_provider) ? entry.top_provider : {};
  if (typeof top.max_completion_tokens === "number") capabilities.maxOutputTokens = top.max_completion_tokens;
  const pricing = readPricing(entry.pricing);
  if (pricing) capabilities.pricing = pricing;
  return capabilities;
}

const SAMPLING = new Set(["temperature", "top_p", "top_k"]);

/** OpenRouter prices are dollars per token as decimal strings; weft keeps dollars per million. */
function readPricing(value: unknown): ModelPricing | undefined {
  if (!isRecord(value)) return undefined;
  const perMillion = (field: unknown) => {
    const number = typeof field === "string" || typeof field === "number" ? Number(field) : Number.NaN;
    return Number.isFinite(number) && number >= 0 ? Math.round(number * 1e6 * 1e6) / 1e6 : undefined;
  };
  const input = perMillion(value.prompt);
  const output = perMillion(value.completion);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = perMillion(value.input_cache_read);
  const cacheWrite = perMillion(value.input_cache_write);
  return { input, output, ...(cacheRead !== undefined ? { cacheRead } : {}), ...(cacheWrite !== undefined ? { cacheWrite } : {}) };
}

/**
 * What an OpenAI-compatible endpoint is assumed to accept when its settings say nothing: plain text
 * and tools. Reasoning fields, images, PDFs and json_schema are sent only once the user says the
 * endpoint takes them (`capabilities` in the settings): a server refuses fields it does not know.
 */
export const COMPATIBLE_DEFAULTS: Readonly<ModelCapabilities> = Object.freeze({ reasoning: false, images: false, documents: false, structuredOutput: false });

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}
