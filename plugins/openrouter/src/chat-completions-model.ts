import { hasMediaParts, isRecord, Type, type ChatModel, type ChatRequest, type ModelSpec, type StreamEvent, WeftError } from "@weft/sdk";
import {
  costFromPricing,
  createProviderModel,
  encodeJsonBody,
  flatEvents,
  parseJsonChunk,
  providerFetch,
  providerSettingsProperties,
  requireApiKey,
  resolveModelSettings,
  SseParser,
  type ModelCall,
  type ModelCapabilities,
  type ProviderFetchOptions,
  type ProviderSettings,
  type ResolvedSettings,
  type SseEvent,
} from "@weft/sdk/provider";
import { OPENAI_COMPATIBLE, OPENROUTER, chatCompletionsRequest, type EffortStyle } from "./chat-completions-request.js";
import { COMPATIBLE_DEFAULTS, readOpenRouterModel } from "./chat-completions-capabilities.js";
import { ChatCompletionsDecoder, DONE, completionAsChunks } from "./chat-completions-stream.js";

export const OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1";

const Price = Type.Number({ minimum: 0 });
const Prices = Type.Optional(
  Type.Object(
    { input: Price, output: Price, cacheRead: Type.Optional(Price), cacheWrite: Type.Optional(Price) },
    { description: "US dollars per million tokens, for costUsd when the provider reports no cost" },
  ),
);

/** The variables read for settings left unset, by option path (the plugin's `meta.env`). */
export const OPENROUTER_ENV = { apiKey: "OPENROUTER_API_KEY", "compatible.apiKey": "OPENAI_API_KEY", "compatible.baseUrl": "OPENAI_BASE_URL" } as const;

export const CompatibleSettings = Type.Object({
  ...providerSettingsProperties,
  maxTokensField: Type.Optional(Type.Enum(["max_tokens", "max_completion_tokens"], { description: "Field the token limit is sent in (default max_tokens)" })),
  capabilities: Type.Optional(
    Type.Object(
      {
        reasoning: Type.Optional(Type.Boolean({ description: "Send reasoning_effort for effort (default false)" })),
        images: Type.Optional(Type.Boolean({ description: "Send image parts as image_url (default false: a text placeholder)" })),
        documents: Type.Optional(Type.Boolean({ description: "Send PDF parts as file parts (default false: a text placeholder)" })),
        structuredOutput: Type.Optional(Type.Boolean({ description: "Use response_format json_schema for structured output (default false)" })),
      },
      { description: "What the endpoint accepts; anything not stated is assumed unsupported" },
    ),
  ),
  prices: Prices,
});

export const OpenRouterSettings = Type.Object({
  ...providerSettingsProperties,
  appName: Type.Optional(Type.String({ description: "Sent as X-Title: your app's name in OpenRouter's rankings" })),
  appUrl: Type.Optional(Type.String({ description: "Sent as HTTP-Referer: your app's URL" })),
  promptCaching: Type.Optional(Type.Boolean({ description: "Mark cache_control breakpoints for anthropic/* models, which cache only with them (default true)" })),
  prices: Prices,
  compatible: Type.Optional(CompatibleSettings),
});

interface Endpoint {
  provider: string;
  baseUrl: string;
  headers: Record<string, string>;
  effortStyle: EffortStyle;
  maxTokensField: "max_tokens" | "max_completion_tokens";
  credentialHint: string;
  /** What a model accepts: looked up (OpenRouter's model list) or stated (openai-compatible). */
  capabilities: (model: string, models: ModelsListing) => Promise<ModelCapabilities | undefined>;
  /** Mark cache breakpoints for this model. */
  cacheControl: (model: string) => boolean;
}

/** GET {baseUrl}/models, fetched at most once per ChatModel. */
type ModelsListing = () => Promise<Record<string, unknown>[]>;

/** OpenRouter: `OPENROUTER_API_KEY`, `reasoning: {effort}`, app attribution headers. */
export function createOpenRouterModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(OpenRouterSettings, defaults, spec);
  const apiKey = requireApiKey(OPENROUTER, settings.apiKey, OPENROUTER_ENV.apiKey);
  // The list is read once; a failed read is kept too, so a chat never waits on it twice.
  let known: Promise<Record<string, unknown>[] | undefined> | undefined;
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
    // A model the list does not describe is unknown: fields go as asked, and OpenRouter drops
    // parameters a model does not take.
    async capabilities(model, listing) {
      known ??= listing().catch(() => undefined);
      return readOpenRouterModel((await known)?.find((entry) => entry.id === model));
    },
    cacheControl: (model) => (settings.promptCaching ?? true) && model.startsWith("anthropic/"),
  });
}

/**
 * Any Chat Completions endpoint (OpenAI, vLLM, LM Studio, llama.cpp, Ollama's /v1): the base URL
 * from the settings, else `OPENAI_BASE_URL`. The key from the settings, else `OPENAI_API_KEY`, but
 * that one only goes to the URL it belongs with (`OPENAI_BASE_URL`, or api.openai.com), so a local
 * server named in the config is not sent a cloud key by accident.
 */
export function createCompatibleModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(CompatibleSettings, defaults, spec);
  const baseUrl = settings.baseUrl ?? process.env[OPENROUTER_ENV["compatible.baseUrl"]];
  if (!baseUrl) {
    throw new WeftError(
      "CONFIG_INVALID",
      "openai-compatible: no baseUrl; set compatible.baseUrl in the openrouter plugin options (e.g. http://localhost:8000/v1), baseUrl in the model spec, or OPENAI_BASE_URL",
    );
  }
  const envKeyFits = settings.baseUrl === undefined || hostnameOf(baseUrl) === "api.openai.com";
  const apiKey = settings.apiKey ?? (envKeyFits ? process.env[OPENROUTER_ENV["compatible.apiKey"]] : undefined);
  return chatCompletionsModel(settings, {
    provider: OPENAI_COMPATIBLE,
    baseUrl,
    headers: { ...settings.headers, ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
    effortStyle: "reasoning_effort",
    maxTokensField: settings.maxTokensField ?? "max_tokens",
    credentialHint: "the server rejected the API key; check the apiKey setting",
    capabilities: async () => ({ ...COMPATIBLE_DEFAULTS, ...settings.capabilities }),
    cacheControl: () => false,
  });
}

type Settings = ResolvedSettings<typeof ProviderSettings> & { prices?: { input: number; output: number; cacheRead?: number; cacheWrite?: number } };

function chatCompletionsModel(settings: Settings, endpoint: Endpoint): ChatModel {
  const { provider } = endpoint;
  const baseUrl = endpoint.baseUrl.replace(/\/+$/, "");
  const transport: ProviderFetchOptions = {
    provider,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs,
    maxDelayMs: settings.maxRetryDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    idleTimeoutMs: settings.idleTimeoutMs,
    credentialHint: endpoint.credentialHint,
  };

  let listing: Promise<Record<string, unknown>[]> | undefined;
  const models: ModelsListing = () => {
    listing ??= providerFetch({ url: `${baseUrl}/models`, headers: endpoint.headers }, { ...transport, maxRetries: 0 })
      .then((response) => response.json())
      .then((body) => (isRecord(body) && Array.isArray(body.data) ? body.data.filter(isRecord) : []));
    // A failure is not kept: info() may ask again later.
    listing.catch(() => {
      listing = undefined;
    });
    return listing;
  };

  /** The reply's events in the batches they are decoded in (`flatEvents` hands them out one by one). */
  async function* replyBatches(request: ChatRequest, call: ModelCall): AsyncGenerator<readonly StreamEvent[]> {
    // Asked only when the request depends on the answer, so a plain chat makes one request.
    const dependsOnModel = call.output !== undefined || request.topP !== undefined || request.topK !== undefined || call.effort !== "off" || request.messages.some((message) => (message.role === "user" || message.role === "tool") && hasMediaParts(message));
    const capabilities = dependsOnModel ? await endpoint.capabilities(call.model, models) : undefined;
    const { body, notices } = chatCompletionsRequest(request, {
      provider,
      model: call.model,
      effort: call.effort,
      effortStyle: endpoint.effortStyle,
      maxTokens: settings.maxTokens,
      maxTokensField: endpoint.maxTokensField,
      ...(capabilities ? { capabilities } : {}),
      cacheControl: endpoint.cacheControl(call.model),
      ...(call.output ? { output: call.output } : {}),
    });
    if (notices.length > 0) yield notices.map((notice): StreamEvent => ({ type: "notice", ...notice }));
    const bodyJson = encodeJsonBody(body);
    const response = await providerFetch({ url: `${baseUrl}/chat/completions`, headers: endpoint.headers, bodyJson, signal: request.signal }, transport);
    const pricing = settings.prices ?? capabilities?.pricing;
    const decoder = new ChatCompletionsDecoder({ provider, model: `${provider}/${call.model}`, retries: response.retries, ...(pricing ? { costOf: (stats) => costFromPricing(stats, pricing) } : {}) });
    // Some servers ignore `stream: true` (llama.cpp with tools, some proxies) and answer whole.
    if (response.headers.get("content-type")?.includes("application/json")) {
      for (const chunk of completionAsChunks(await response.jsonObject())) yield decoder.push(chunk);
      yield decoder.finish();
      return;
    }
    // One loop from the body's bytes to the events, SSE framing, JSON and decoding synchronous steps
    // inside it: a batch costs one yield instead of a hop through a generator per stage.
    // Each SSE event is decoded and its events yielded before the next is parsed, so the events before
    // a bad chunk are out before its error is thrown. Most chunks (tool-call fragments) decode to no
    // event, and cost no yield.
    const parser = new SseParser();
    const chunkOf = (event: SseEvent) => (event.data.trim() === DONE ? DONE : parseJsonChunk(provider, event.data, response.retries));
    for await (const bytes of response.chunks()) {
      for (const event of parser.push(bytes)) {
        const decoded = decoder.push(chunkOf(event));
        if (decoded.length > 0) yield decoded;
        if (decoder.done) break;
      }
      // Leaving the loop at [DONE] lets the body finish behind us (or closes it).
      if (decoder.done) break;
    }
    if (!decoder.done) for (const event of parser.end()) yield decoder.push(chunkOf(event));
    yield decoder.finish();
  }

  return createProviderModel({
    retry: transport,
    provider,
    model: settings.model,
    models: settings.models,
    effort: settings.effort,
    contextWindow: settings.contextWindow,
    stream: (request, call) => flatEvents(replyBatches(request, call)),
    async lookupContextWindow(model) {
      const entry = (await models()).find((candidate) => candidate.id === model);
      // OpenRouter says context_length; vLLM max_model_len; some servers context_window.
      const size = entry?.context_length ?? entry?.max_model_len ?? entry?.context_window;
      return typeof size === "number" ? size : undefined;
    },
  });
}

function hostnameOf(url: string): string | undefined {
  try {
    return new URL(url).hostname;
  } catch {
    return undefined; // providerFetch reports a bad URL when it is used
  }
}
