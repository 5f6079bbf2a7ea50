import { isRecord } from "@weft/sdk";
import type { ModelCapabilities } from "@weft/sdk/provider";

/** What `POST /api/show` says of a model that shapes a chat request. */
export interface OllamaCapabilities extends ModelCapabilities {
  /** `capabilities` lists `tools`. */
  tools: boolean;
  /** Takes `think` as a level (`low`/`medium`/`high`): GPT-OSS; other thinking models take a boolean. */
  thinkLevels: boolean;
}

/**
 * Reads `/api/show`: `capabilities` (`completion`, `tools`, `thinking`, `vision`, ...) and
 * `model_info["<architecture>.context_length"]`. Undefined when the answer has no capabilities
 * list (servers before Ollama 0.6.4): the request is then sent as asked.
 */
export function readShow(model: string, shown: unknown): OllamaCapabilities | undefined {
  if (!isRecord(shown) || !Array.isArray(shown.capabilities)) return undefined;
  const listed = new Set(shown.capabilities.filter((item): item is string => typeof item === "string"));
  const info = isRecord(shown.model_info) ? shown.model_info : {};
  const size = info[`${String(info["general.architecture"])}.context_length`];
  const architecture = info["general.architecture"];
  return {
    reasoning: listed.has("thinking"),
    thinkLevels: listed.has("thinking") && (architecture === "gptoss" || model.startsWith("gpt-oss")),
    tools: listed.has("tools"),
    images: listed.has("vision"),
    // Ollama's chat API has no document input.
    documents: false,
    structuredOutput: true,
    ...(typeof size === "number" ? { contextWindow: size } : {}),
  };
}
