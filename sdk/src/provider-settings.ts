import type { Static, TObject } from "typebox";
import { Type, Value } from "./typebox-lite.js";
import { EFFORTS, type Effort } from "./chat-model.js";
import { WeftError } from "./errors.js";
import type { ModelSpec } from "./provider.js";
import { registerSecret } from "./secret-redaction.js";
import { isRecord } from "./is-record.js";

/**
 * The settings every provider takes, as typebox properties: spread them into a plugin's options
 * schema (`Type.Object({ ...providerSettingsProperties, appName: ... })`). Plugin options are the
 * defaults; the fields of a `ModelSpec` passed to `kernel.createModel` override them.
 */
export const providerSettingsProperties = {
  apiKey: Type.Optional(Type.String({ minLength: 1, description: "API key; the provider's environment variable when absent" })),
  baseUrl: Type.Optional(Type.String({ minLength: 1, description: "Endpoint base URL" })),
  models: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: "Models changeModel may switch to" })),
  effort: Type.Optional(Type.Enum([...EFFORTS], { description: "Reasoning effort: off, low, medium, high, max (default off)" })),
  maxRetries: Type.Optional(Type.Integer({ minimum: 0, description: "Retries for 429/5xx/network errors (default 3)" })),
  idleTimeoutMs: Type.Optional(Type.Integer({ minimum: 1, description: "Fail when no byte arrives for this long (ms)" })),
  maxTokens: Type.Optional(Type.Integer({ minimum: 1, description: "Output token limit when a request sets none" })),
  retryBaseDelayMs: Type.Optional(Type.Integer({ minimum: 0, description: "First retry backoff (ms, default 500), doubled each retry" })),
  maxRetryDelayMs: Type.Optional(Type.Integer({ minimum: 0, description: "Longest backoff between retries (ms, default 30000)" })),
  maxRetryAfterMs: Type.Optional(Type.Integer({ minimum: 0, description: "Longest Retry-After honoured (ms, default 60000); a longer one fails at once, naming the wait" })),
  contextWindow: Type.Optional(Type.Integer({ minimum: 1, description: "Context window for info(), instead of asking the provider" })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String(), { description: "Extra HTTP headers sent with every request" })),
};

export const ProviderSettings = Type.Object(providerSettingsProperties);
export type ProviderSettings = Static<typeof ProviderSettings>;

/** Settings after merging: the model is known and effort has its default. */
export type ResolvedSettings<S extends TObject> = Static<S> & { model: string; effort: Effort };

/**
 * Merges a provider plugin's options (the defaults) with the spec given to `createModel` (its defined
 * fields win), validates the result against `schema`, and fills in `effort` (default `off`).
 */
export function resolveModelSettings<S extends TObject>(schema: S, defaults: unknown, spec: ModelSpec): ResolvedSettings<S> {
  const merged: Record<string, unknown> = { ...(isRecord(defaults) ? defaults : {}) };
  for (const [key, value] of Object.entries(spec)) {
    if (key !== "provider" && value !== undefined) merged[key] = value;
  }
  const provider = spec.provider;
  if (typeof merged.model !== "string" || merged.model === "") {
    throw new WeftError("MODEL_INVALID", `${provider}: no model given; name one, e.g. ${provider}/<model>`);
  }
  const [first] = Value.Errors(schema, merged);
  if (first) {
    const code = first.instancePath === "/effort" ? "EFFORT_INVALID" : "MODEL_INVALID";
    const detail = first.instancePath === "/effort" ? `use one of ${EFFORTS.join(", ")}` : first.message;
    throw new WeftError(code, `${provider}: invalid model setting ${first.instancePath.slice(1).replaceAll("/", ".")}: ${detail}`);
  }
  merged.effort ??= "off";
  return merged as ResolvedSettings<S>;
}

/** An API key from the settings, else the environment; a missing key fails when the model is created. */
export function requireApiKey(provider: string, apiKey: string | undefined, envVar: string): string {
  const key = apiKey ?? process.env[envVar];
  registerSecret(key);
  if (key) return key;
  throw new WeftError(
    "CREDENTIAL_MISSING",
    `${provider}: no API key; set ${envVar} in the environment, or apiKey in the plugin options (weft.config.yaml) or the model spec`,
  );
}
