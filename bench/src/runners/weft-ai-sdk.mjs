/**
 * weft over the AI SDK adapter: the weft row exactly, except that the model is @ai-sdk/openai-compatible
 * wrapped by @weft/ai-sdk's createAiSdkModel instead of weft's native openai-compatible provider. The
 * ratio of this row to the weft row is what the adapter costs.
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createAiSdkModel } from "@weft/ai-sdk";
import { MODEL_ID } from "../script.mjs";
import { setupWeft } from "./weft.mjs";

export function setup(options) {
  const provider = createOpenAICompatible({ name: "bench", baseURL: `${options.llmUrl}/v1`, apiKey: "bench", includeUsage: true });
  return setupWeft(options, () => createAiSdkModel({ provider: "openai-compatible", factory: provider, model: MODEL_ID, contextWindow: 128_000 }));
}
