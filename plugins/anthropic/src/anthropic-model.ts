import { hasMediaParts, isRecord, Type, type ChatModel, type ChatRequest, type ModelSpec, type StreamEvent } from "@weft/sdk";
import {
  CapabilityCache,
  answerToolAsText,
  createProviderModel,
  encodeJsonBody,
  parseJsonChunk,
  pricedEvents,
  providerFetch,
  providerSettingsProperties,
  requireApiKey,
  resolveModelSettings,
  sseEvents,
  type ModelCall,
  type ProviderFetchOptions,
} from "@weft/sdk/provider";
import { ANTHROPIC, anthropicRequest } from "./anthropic-request.js";
import { anthropicFallbackCapabilities, readModelInfo, type AnthropicCapabilities } from "./anthropic-capabilities.js";
import { anthropicPricing } from "./anthropic-prices.js";
import { decodeAnthropicStream, messageAsEvents } from "./anthropic-stream.js";

export const ANTHROPIC_BASE_URL = "https://api.anthropic.com";
export const ANTHROPIC_VERSION = "2023-06-01";
/** Output tokens when neither the request nor the settings give a limit. */
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 8192;

/** The variables read for settings left unset (the plugin's `meta.env`). */
export const ANTHROPIC_ENV = { apiKey: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" } as const;

export const AnthropicSettings = Type.Object({
  ...providerSettingsProperties,
  promptCaching: Type.Optional(Type.Boolean({ description: "Mark the last tool, the system block and the last message for prompt caching (default true)" })),
  prices: Type.Optional(
    Type.Object(
      { input: Type.Number({ minimum: 0 }), output: Type.Number({ minimum: 0 }), cacheRead: Type.Optional(Type.Number({ minimum: 0 })), cacheWrite: Type.Optional(Type.Number({ minimum: 0 })) },
      { description: "US dollars per million tokens for costUsd (default: Anthropic's list prices by model family)" },
    ),
  ),
});

/** A ChatModel over the Messages API. `defaults` are the plugin options; the spec's fields win. */
export function createAnthropicModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(AnthropicSettings, defaults, spec);
  const apiKey = requireApiKey(ANTHROPIC, settings.apiKey, ANTHROPIC_ENV.apiKey);
  const baseUrl = (settings.baseUrl ?? process.env[ANTHROPIC_ENV.baseUrl] ?? ANTHROPIC_BASE_URL).replace(/\/+$/, "");
  const headers = { ...settings.headers, "x-api-key": apiKey, "anthropic-version": ANTHROPIC_VERSION };
  const transport: ProviderFetchOptions = {
    provider: ANTHROPIC,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs,
    maxDelayMs: settings.maxRetryDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    credentialHint: "the API key was rejected; check ANTHROPIC_API_KEY or the apiKey setting",
  };

  // Asked once per model, only by a request that depends on the answer; never with retries (the
  // chat request must not wait on them), and a failure falls back to the family table.
  const capabilities = new CapabilityCache(
    async (model) => readModelInfo(await (await providerFetch({ url: `${baseUrl}/v1/models/${encodeURIComponent(model)}`, headers }, { ...transport, maxRetries: 0 })).json()),
    anthropicFallbackCapabilities,
  );

  async function* stream(request: ChatRequest, call: ModelCall): AsyncGenerator<StreamEvent> {
    const dependsOnModel = call.output !== undefined || call.effort !== "off" || request.messages.some((message) => (message.role === "user" || message.role === "tool") && hasMediaParts(message));
    const model = dependsOnModel ? (await capabilities.get(call.model)).capabilities : undefined;
    const events = pricedEvents(reply(request, call, model), settings.prices ?? anthropicPricing(call.model));
    // Without native structured outputs the answer comes as the forced tool's call: read as the reply's text.
    yield* call.output && !model?.structuredOutput ? answerToolAsText(events, call.output.name) : events;
  }

  async function* reply(request: ChatRequest, call: ModelCall, model: AnthropicCapabilities | undefined): AsyncGenerator<StreamEvent> {
    const { body, notices } = anthropicRequest(request, {
      model: call.model,
      effort: call.effort,
      maxTokens: settings.maxTokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
      promptCaching: settings.promptCaching ?? true,
      ...(model ? { capabilities: model } : {}),
      ...(call.output ? { output: call.output } : {}),
    });
    for (const notice of notices) yield { type: "notice", ...notice };
    const response = await providerFetch({ url: `${baseUrl}/v1/messages`, headers, bodyJson: encodeJsonBody(body), signal: request.signal }, transport);
    const context = { model: `${ANTHROPIC}/${call.model}`, retries: response.retries };
    // A proxy (or a server that ignores `stream`) may answer with the whole message as JSON.
    if (response.headers.get("content-type")?.includes("application/json")) {
      yield* decodeAnthropicStream(messageAsEvents(await response.jsonObject()), context);
      return;
    }
    async function* payloads() {
      for await (const event of sseEvents(response.chunks())) yield parseJsonChunk(ANTHROPIC, event.data, response.retries);
    }
    yield* decodeAnthropicStream(payloads(), context);
  }

  return createProviderModel({
    retry: transport,
    provider: ANTHROPIC,
    model: settings.model,
    models: settings.models,
    effort: settings.effort,
    contextWindow: settings.contextWindow,
    stream,
    async lookupContextWindow(model) {
      const response = await providerFetch({ url: `${baseUrl}/v1/models/${encodeURIComponent(model)}`, headers }, transport);
      const info = await response.json();
      return isRecord(info) && typeof info.max_input_tokens === "number" ? info.max_input_tokens : undefined;
    },
  });
}
