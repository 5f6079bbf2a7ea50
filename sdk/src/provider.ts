import type { ChatModel, Effort } from "./chat-model.js";

/** What `kernel.createModel` passes to a provider: the model and the caller's settings. */
export interface ModelSpec {
  provider: string;
  /** The provider's model id (everything after the first `/` of `provider/model`). */
  model: string;
  effort?: Effort;
  /** What `changeModel` may switch to; the active model is added when missing. */
  models?: string[];
  baseUrl?: string;
  apiKey?: string;
  /** Retries for 429/5xx/network errors (default 3). */
  maxRetries?: number;
  /** Fail the call when the stream sends no byte for this long (ms). */
  idleTimeoutMs?: number;
  maxTokens?: number;
  /** Provider-specific settings. */
  [setting: string]: unknown;
}

export interface Provider {
  /** `anthropic`, `openrouter`, `openai-compatible`, `ollama`, ... */
  id: string;
  description?: string;
  createModel(spec: ModelSpec): ChatModel;
}

export function defineProvider(provider: Provider): Provider {
  return provider;
}

/** Splits `provider/model` at the first slash: `openrouter/openai/gpt-4o` → openrouter + openai/gpt-4o. */
export function parseModelRef(ref: string): { provider: string; model: string } | undefined {
  const slash = ref.indexOf("/");
  if (slash <= 0 || slash === ref.length - 1) return undefined;
  return { provider: ref.slice(0, slash), model: ref.slice(slash + 1) };
}
