import { hasMediaParts, isRecord, Type, type ChatModel, type ChatRequest, type ModelSpec, type StreamEvent } from "@weft/sdk";
import {
  createProviderModel,
  pricedEvents,
  ndjsonValues,
  encodeJsonBody,
  parseJsonChunk,
  providerFetch,
  providerSettingsProperties,
  resolveModelSettings,
  type ModelCall,
  type ModelPricing,
  type ProviderFetchOptions,
} from "@weft/sdk/provider";
import { OLLAMA, ollamaRequest } from "./ollama-request.js";
import { readShow, type OllamaCapabilities } from "./ollama-capabilities.js";
import { decodeOllamaStream } from "./ollama-stream.js";

export const OLLAMA_DEFAULT_HOST = "http://localhost:11434";
/** Loading a large model can take minutes before the first byte. */
export const OLLAMA_IDLE_TIMEOUT_MS = 300_000;

/** The variable read for the host when no baseUrl is set (the plugin's `meta.env`). */
export const OLLAMA_ENV = { baseUrl: "OLLAMA_HOST" } as const;

export const OllamaSettings = Type.Object({
  ...providerSettingsProperties,
  numCtx: Type.Optional(Type.Integer({ minimum: 1, description: "options.num_ctx: the context length to load the model with; also what info() reports" })),
  keepAlive: Type.Optional(Type.Union([Type.String(), Type.Number()], { description: "keep_alive: how long the model stays loaded (e.g. 5m, 0)" })),
});

/**
 * The base URL as Ollama's own client reads `OLLAMA_HOST`: a missing scheme means http, and a
 * missing port on http means 11434.
 */
export function ollamaBaseUrl(host: string): string {
  const trimmed = host.trim().replace(/\/+$/, "");
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`;
  const url = new URL(withScheme);
  const hostPart = withScheme.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").split("/")[0] ?? "";
  if (url.protocol === "http:" && !/:\d+$/.test(hostPart)) url.port = "11434";
  return url.toString().replace(/\/+$/, "");
}

/** A ChatModel over Ollama's native `/api/chat`. No key; the host from settings, `OLLAMA_HOST`, or localhost. */
export function createOllamaModel(spec: ModelSpec, defaults: unknown = {}): ChatModel {
  const settings = resolveModelSettings(OllamaSettings, defaults, spec);
  const host = process.env[OLLAMA_ENV.baseUrl];
  const baseUrl = settings.baseUrl ? settings.baseUrl.replace(/\/+$/, "") : host ? ollamaBaseUrl(host) : OLLAMA_DEFAULT_HOST;
  // Ollama's hosted API takes a bearer key; a local server needs none.
  const headers = { ...settings.headers, ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}) };
  const transport: ProviderFetchOptions = {
    provider: OLLAMA,
    maxRetries: settings.maxRetries,
    baseDelayMs: settings.retryBaseDelayMs,
    maxDelayMs: settings.maxRetryDelayMs,
    maxRetryAfterMs: settings.maxRetryAfterMs,
    idleTimeoutMs: settings.idleTimeoutMs ?? OLLAMA_IDLE_TIMEOUT_MS,
    credentialHint: "the server rejected the API key; check the apiKey setting",
  };

  // Asked once per model, failures included, by the first request that depends on it (effort on,
  // or images): a server that cannot say gets the request as asked.
  const known = new Map<string, Promise<OllamaCapabilities | undefined>>();
  const capabilities = (model: string) => {
    let entry = known.get(model);
    if (!entry) {
      entry = providerFetch({ url: `${baseUrl}/api/show`, headers, body: { model } }, { ...transport, maxRetries: 0 })
        .then((response) => response.json())
        .then((shown) => readShow(model, shown))
        .catch(() => undefined);
      known.set(model, entry);
    }
    return entry;
  };

  async function* stream(request: ChatRequest, call: ModelCall): AsyncGenerator<StreamEvent> {
    const dependsOnModel = call.output !== undefined || call.effort !== "off" || request.messages.some((message) => (message.role === "user" || message.role === "tool") && hasMediaParts(message));
    const shown = dependsOnModel ? await capabilities(call.model) : undefined;
    const { body, notices } = ollamaRequest(request, {
      model: call.model,
      effort: call.effort,
      maxTokens: settings.maxTokens,
      numCtx: settings.numCtx,
      keepAlive: settings.keepAlive,
      ...(shown ? { capabilities: shown } : {}),
      ...(call.output ? { output: call.output } : {}),
    });
    for (const notice of notices) yield { type: "notice", ...notice };
    const response = await providerFetch({ url: `${baseUrl}/api/chat`, headers, bodyJson: encodeJsonBody(body), signal: request.signal }, transport);
    const context = { model: `${OLLAMA}/${call.model}`, retries: response.retries };
    const pricing = localPricing(baseUrl, call.model);
    // A non-streamed reply (application/json, maybe pretty-printed) is one object with done: true.
    if (response.headers.get("content-type")?.includes("application/json")) {
      yield* pricedEvents(decodeOllamaStream([await response.json()], context), pricing);
      return;
    }
    yield* pricedEvents(
      decodeOllamaStream(
        ndjsonValues(response.chunks(), (line) => parseJsonChunk(OLLAMA, line, response.retries)),
        context,
      ),
      pricing,
    );
  }

  return createProviderModel({
    retry: transport,
    provider: OLLAMA,
    model: settings.model,
    models: settings.models,
    effort: settings.effort,
    contextWindow: settings.contextWindow ?? settings.numCtx,
    stream,
    async lookupContextWindow(model) {
      const response = await providerFetch({ url: `${baseUrl}/api/show`, headers, body: { model } }, transport);
      const shown = await response.json();
      const info = isRecord(shown) && isRecord(shown.model_info) ? shown.model_info : {};
      const size = info[`${String(info["general.architecture"])}.context_length`];
      return typeof size === "number" ? size : undefined;
    },
  });
}

/**
 * A model run by the local server costs nothing, and says so (`costUsd: 0`); Ollama's cloud models
 * (`…-cloud` tags, or ollama.com as the host) are billed by subscription, so no cost is claimed.
 */
function localPricing(baseUrl: string, model: string): ModelPricing | undefined {
  if (/[-:]cloud$/.test(model) || /^https?:\/\/(?:[^/]*\.)?ollama\.com(?:[:/]|$)/.test(baseUrl)) return undefined;
  return { input: 0, output: 0 };
}
