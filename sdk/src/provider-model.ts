import { EFFORTS, type ChatModel, type ChatRequest, type Effort, type ModelInfo, type StreamEvent } from "./chat-model.js";
import { ProviderError, WeftError } from "./errors.js";
import { collectMessage } from "./stream-collector.js";
import { withStructuredOutput, type ResolvedOutput } from "./structured-output.js";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "./retry-policy.js";
import { RetryingStream } from "./retrying-stream.js";

/** The settings one call runs with, taken when it starts: a later change leaves it alone. */
export interface ModelCall {
  model: string;
  effort: Effort;
  /** With a structured-output request: the schema to map onto the provider's native mode. */
  output?: ResolvedOutput;
}

/** What a provider implements; `createProviderModel` turns it into a ChatModel. */
export interface ProviderModelDriver {
  provider: string;
  model: string;
  /** What `changeModel` may switch to; the active model is added when missing. */
  models?: readonly string[];
  effort?: Effort;
  /** Streams one reply. Must end with `done` or throw. */
  stream(request: ChatRequest, call: ModelCall): AsyncIterable<StreamEvent>;
  /** Asks the provider for a model's context window; undefined when it does not say. */
  lookupContextWindow(model: string): Promise<number | undefined>;
  /** A context window the user set: `info()` reports it without asking the provider. */
  contextWindow?: number;
  /** How a retryable error event before any content is retried (HTTP retries are providerFetch's). */
  retry?: Partial<RetryPolicy>;
}

/**
 * The ChatModel every provider shares: `chat` is `stream` drained, `changeModel`/`changeEffort`
 * validate before they change anything, a call keeps the settings it started with, and `info()` is
 * cached per model (a transient failure is not cached; "the provider does not say" is).
 */
export function createProviderModel(driver: ProviderModelDriver): ChatModel {
  const { provider } = driver;
  let model = driver.model;
  let effort: Effort = driver.effort ?? "off";
  const models = Object.freeze(driver.models?.includes(model) ? [...driver.models] : [...(driver.models ?? []), model]);
  const infos = new Map<string, Promise<ModelInfo>>();

  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...definedFields(driver.retry ?? {}) };

  /** One call's reply, retried as RetryingStream says. */
  function stream(request: ChatRequest): AsyncIterable<StreamEvent> {
    // Taken now, not at the first read: a later changeModel leaves this call alone.
    const call: ModelCall = { model, effort };
    return withStructuredOutput(request, `${provider}/${call.model}`, (attempt, output) => {
      const settings = output ? { ...call, output } : call;
      return new RetryingStream(() => driver.stream(attempt, settings), policy, attempt.signal);
    });
  }

  function lookup(name: string): Promise<ModelInfo> {
    if (driver.contextWindow !== undefined) return Promise.resolve({ provider, model: name, contextWindow: driver.contextWindow });
    const unknown = new ProviderError(
      `the context window of model "${name}" is unknown: the provider does not report it; set contextWindow in the model settings`,
      { provider, retries: 0 },
    );
    const info = driver.lookupContextWindow(name).then((contextWindow) => {
      if (contextWindow === undefined || !Number.isFinite(contextWindow) || contextWindow <= 0) throw unknown;
      return { provider, model: name, contextWindow };
    });
    info.catch((error: unknown) => {
      if (error !== unknown) infos.delete(name);
    });
    return info;
  }

  return {
    provider,
    get model() {
      return model;
    },
    get effort() {
      return effort;
    },
    models,
    stream,
    chat: (request) => collectMessage(stream(request), provider),
    info() {
      let info = infos.get(model);
      if (!info) {
        info = lookup(model);
        infos.set(model, info);
      }
      return info;
    },
    changeModel(next) {
      if (!models.includes(next)) {
        throw new WeftError("MODEL_INVALID", `${provider}: unknown model "${next}"; available: ${models.join(", ")}. List it in the models setting to switch to it`);
      }
      model = next;
    },
    changeEffort(next) {
      if (!EFFORTS.includes(next)) throw new WeftError("EFFORT_INVALID", `${provider}: unknown effort "${String(next)}"; use one of ${EFFORTS.join(", ")}`);
      effort = next;
    },
  };
}

function definedFields<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as Partial<T>;
}
