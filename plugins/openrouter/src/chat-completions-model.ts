import { Type } from "typebox";
import {
  WeftError,
  createProviderModel,
  parseJsonChunk,
  providerFetch,
  providerSettingsProperties,
  requireApiKey,
  resolveModelSettings,
  SseParser,
  type ChatModel,
  type ChatRequest,
  type ModelCall,
  type ModelSpec,
  type ProviderFetchOptions,
  type ProviderSettings,
  type ResolvedSettings,
  type SseEvent,
  type StreamEvent,
} from "@weft/sdk";
import { OPENAI_COMPATIBLE, OPENROUTER, chatCompletionsBody, type EffortStyle } from "./chat-completions-request.js";
import { ChatCompletionsDecoder, DONE, completionAsChunks } from "./chat-completions-stream.js";

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

export const CompatibleSettings = Type.Object({
  ...providerSettingsProperties,
  maxTokensField: Type.Optional(Type.Enum(["max_tokens", "max_completion_tokens"], { description: "Field the token limit is sent in (default max_tokens)" })),
});

export const OpenRouterSettings = Type.Object({
  ...providerSettingsProperties,
  appName: Type.Optional(Type.String({ description: "Sent as X-Title: your app's name in OpenRouter's rankings" })),
  appUrl: Type.Optional(Type.String({ description: "Sent as HTTP-Referer: your app's URL" })),
  compatible: Type.Optional(CompatibleSettings),
});

interface Endpoint {
  provider: string;
  baseUrl: string;
  headers: Record<string, string>;
  effortStyle: EffortStyle;
  maxTokensField: "max_tokens" | "max_completion_tokens";
  credentialHint: string;
}

/** OpenRouter: `OPENROUTER_API_KEY`, `reasoning: {effort}`, app attribution headers. */
export function createOpenRouterModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(OpenRouterSettings, defaults, spec);
  const apiKey = requireApiKey(OPENROUTER, settings.apiKey, "OPENROUTER_API_KEY");
  return chatCompletionsModel(settings, {
    provider: OPENROUTER,
    baseUrl: settings.baseUrl ?? OPENROUTER_BASE_URL,
    headers: {
      ...settings.headers,
      authorization: `Bearer ${apiKey}`,
      ...(settings.appUrl ? { "http-referer": settings.appUrl } : {}),
      ...(settings.appName ? { "x-title": settings.appName } : {}),
    },
    effortStyle: "openrouter",
    maxTokensField: "max_tokens",
    credentialHint: "the API key was rejected; check OPENROUTER_API_KEY or the apiKey setting",
  });
}

/**
 * Any Chat Completions endpoint (OpenAI, vLLM, LM Studio, llama.cpp, Ollama's /v1): `baseUrl` is
 * required, the key optional and never taken from the environment, so a local server is not sent a
 * cloud key by accident.
 */
export function createCompatibleModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(CompatibleSettings, defaults, spec);
  if (!settings.baseUrl) {
    throw new WeftError(
      "CONFIG_INVALID",
      "openai-compatible: no baseUrl; set compatible.baseUrl in the openrouter plugin options (e.g. http://localhost:8000/v1) or baseUrl in the model spec",
    );
  }
  return chatCompletionsModel(settings, {
    provider: OPENAI_COMPATIBLE,
    baseUrl: settings.baseUrl,
    headers: { ...settings.headers, ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) },
    effortStyle: "reasoning_effort",
    maxTokensField: settings.maxTokensField ?? "max_tokens",
    credentialHint: "the server rejected the API key; check the apiKey setting",
  });
}

type Settings = ResolvedSettings<typeof ProviderSettings>;

function chatCompletionsModel(settings: Settings, endpoint: Endpoint): ChatModel {
  const { provider } = endpoint;
  const baseUrl = endpoint.baseUrl.replace(/\/+$/, "");
  const transport: ProviderFetchOptions = {
    provider,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs,
    maxDelayMs: settings.maxRetryDelayMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    credentialHint: endpoint.credentialHint,
  };

  async function* stream(request: ChatRequest, call: ModelCall): AsyncGenerator<StreamEvent> {
    const body = chatCompletionsBody(request, {
      provider,
      model: call.model,
      effort: call.effort,
      effortStyle: endpoint.effortStyle,
      maxTokens: settings.maxTokens,
      maxTokensField: endpoint.maxTokensField,
    });
    const response = await providerFetch({ url: `${baseUrl}/chat/completions`, headers: endpoint.headers, body, signal: request.signal }, transport);
    const decoder = new ChatCompletionsDecoder({ provider, model: `${provider}/${call.model}`, retries: response.retries });
    // Some servers ignore `stream: true` (llama.cpp with tools, some proxies) and answer whole.
    if (response.headers.get("content-type")?.includes("application/json")) {
      for (const chunk of completionAsChunks((await response.json()) as Record<string, unknown>)) for (const event of decoder.push(chunk)) yield event;
      for (const event of decoder.finish()) yield event;
      return;
    }
    // One loop from the body's bytes to the events, SSE framing, JSON and decoding synchronous steps
    // inside it: an event costs one yield instead of a hop through a generator per stage.
    const parser = new SseParser();
    // A sync generator, so the events before a bad chunk are out before its error is thrown.
    function* decode(events: readonly SseEvent[]): Generator<StreamEvent> {
      for (const event of events) {
        yield* decoder.push(event.data.trim() === DONE ? DONE : parseJsonChunk(provider, event.data, response.retries));
        if (decoder.done) return;
      }
    }
    for await (const bytes of response.chunks()) {
      for (const event of decode(parser.push(bytes))) yield event;
      // Leaving the loop at [DONE] lets the body finish behind us (or closes it).
      if (decoder.done) break;
    }
    if (!decoder.done) for (const event of decode(parser.end())) yield event;
    for (const event of decoder.finish()) yield event;
  }

  return createProviderModel({
    provider,
    model: settings.model,
    models: settings.models,
    effort: settings.effort,
    contextWindow: settings.contextWindow,
    stream,
    async lookupContextWindow(model) {
      const response = await providerFetch({ url: `${baseUrl}/models`, headers: endpoint.headers }, transport);
      const listing = (await response.json()) as { data?: Record<string, unknown>[] };
      const entry = Array.isArray(listing.data) ? listing.data.find((candidate) => candidate?.id === model) : undefined;
      // OpenRouter says context_length; vLLM max_model_len; some servers context_window.
      const size = entry?.context_length ?? entry?.max_model_len ?? entry?.context_window;
      return typeof size === "number" ? size : undefined;
    },
  });
}
