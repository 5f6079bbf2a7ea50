import { describe, it } from "vitest";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { runProviderConformance } from "@weft/sdk/testing";
import { createAiSdkModel } from "./ai-sdk-model.js";
import { chatCompletionsWire, messagesWire } from "./test-fixtures/wires.js";

runProviderConformance(
  { describe, it },
  {
    provider: "compat",
    wire: chatCompletionsWire,
    createModel: ({ baseUrl, ...settings }) =>
      createAiSdkModel({ provider: "compat", factory: createOpenAICompatible({ name: "compat", baseURL: baseUrl, includeUsage: true }), ...settings }),
  },
);

runProviderConformance(
  { describe, it },
  {
    provider: "claude",
    wire: messagesWire,
    createModel: ({ baseUrl, ...settings }) =>
      createAiSdkModel({ provider: "claude", factory: createAnthropic({ baseURL: `${baseUrl}/v1`, apiKey: "test-key" }), ...settings }),
  },
);
