import { APICallError, type LanguageModelV4, type LanguageModelV4CallOptions, type LanguageModelV4StreamPart, type LanguageModelV4Usage } from "@ai-sdk/provider";
import { ProviderError, errorMessage, isAbortError } from "@weft/sdk";
import type { ChatModel, ChatRequest, Effort, ReasoningBlock, Stats, StreamEvent } from "@weft/sdk";
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_RETRY_POLICY,
  ReplyBuilder,
  abortableSleep,
  brokenStreamError,
  createProviderModel,
  htmlPageError,
  httpStatusError,
  isRetryableStatus,
  parseRetryAfter,
  retryAfterBeyondCapHint,
  networkError,
  readProviderFault,
  readProviderFaultText,
  retryDelay,
  streamFaultError,
  truncatedStreamError,
} from "@weft/sdk/provider";
import type { ModelCall, RetryPolicy } from "@weft/sdk/provider";
import { toCallOptions } from "./ai-sdk-prompt.js";
import { IdleWatch } from "./idle-watch.js";

/** An AI SDK provider: callable with a model id (`google("gemini-2.5-flash")`) or with `languageModel(id)`. */
export type LanguageModelFactory = ((modelId: string) => LanguageModelV4) | { languageModel(modelId: string): LanguageModelV4 };

export interface AiSdkModelOptions {
  /** The weft provider id (`gemini`); models are `gemini/<model>`. */
  provider: string;
  factory: LanguageModelFactory;
  model: string;
  models?: readonly string[];
  effort?: Effort;
  maxTokens?: number;
  maxRetries?: number;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Fail when no stream part arrives for this long (ms); 120 s by default, as for weft's own providers. */
  idleTimeoutMs?: number;
  /** The AI SDK's model spec does not report a context window, so `info()` needs it set here. */
  contextWindow?: number;
}

/**
 * Any AI SDK LanguageModel (provider spec v4) as a weft ChatModel: the neutral transcript in, text,
 * reasoning, tool calls and usage (cache tokens included) out. The spec's `doStream` does not retry
 * (the AI SDK's `streamText` does), so the retry of 429/5xx/network failures before the first part is
 * done here, with weft's policy.
 */
export function createAiSdkModel(options: AiSdkModelOptions): ChatModel {
  const { provider, factory } = options;
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.retryBaseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxRetryDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryAfterMs: DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
  const languageModels = new Map<string, LanguageModelV4>();
  const languageModel = (id: string): LanguageModelV4 => {
    let model = languageModels.get(id);
    if (!model) {
      model = typeof factory === "function" ? factory(id) : factory.languageModel(id);
      languageModels.set(id, model);
    }
    return model;
  };

  async function* stream(request: ChatRequest, call: ModelCall): AsyncGenerator<StreamEvent> {
    const callOptions = toCallOptions(request, provider, call.effort, options.maxTokens, call.output);
    const idle = new IdleWatch(provider, options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS, callOptions.abortSignal);
    callOptions.abortSignal = idle.signal;
    let retries = 0;
    try {
      const opened = await openStream(provider, languageModel(call.model), callOptions, policy, idle);
      retries = opened.retries;
      yield* decodeParts(opened.parts, provider, new ReplyBuilder(`${provider}/${call.model}`), retries, idle);
    } catch (error) {
      throw idle.idled ? idle.error(retries) : error;
    } finally {
      idle.stop();
    }
  }

  return createProviderModel({
    provider,
    model: options.model,
    models: options.models,
    effort: options.effort,
    contextWindow: options.contextWindow,
    stream,
    lookupContextWindow: async () => undefined,
  });
}

async function openStream(provider: string, model: LanguageModelV4, callOptions: LanguageModelV4CallOptions, policy: RetryPolicy, idle: IdleWatch) {
  for (let attempt = 0; ; attempt++) {
    idle.touch();
    try {
      const result = await model.doStream(callOptions);
      idle.stop();
      // The AI SDK reads the body itself: a page in place of the stream shows only in its content type.
      const contentType = result.response?.headers?.["content-type"] ?? "";
      if (contentType.includes("text/html")) throw htmlPageError(provider, 200, "<html>", attempt);
      return { parts: result.stream, retries: attempt };
    } catch (error) {
      idle.stop();
      if (isAbortError(error) || callOptions.abortSignal?.aborted || error instanceof ProviderError) throw error;
      if (attempt < policy.maxRetries && retryable(error)) {
        const headers = APICallError.isInstance(error) && error.responseHeaders ? new Headers(error.responseHeaders) : undefined;
        const wait = retryDelay(attempt, policy, headers);
        if (wait !== undefined) {
          await abortableSleep(wait, callOptions.abortSignal);
          continue;
        }
        // A Retry-After beyond the cap is not waited for: the error says what the provider asked.
        const asked = headers ? parseRetryAfter(headers) : undefined;
        throw providerError(provider, error, attempt, asked === undefined ? undefined : retryAfterBeyondCapHint(asked, policy));
      }
      throw providerError(provider, error, attempt);
    }
  }
}

/** weft's retry rule: the retryable statuses, and a request that got no response at all. */
function retryable(error: unknown): boolean {
  if (!APICallError.isInstance(error)) return false;
  return error.statusCode === undefined ? error.isRetryable : isRetryableStatus(error.statusCode);
}

function providerError(provider: string, error: unknown, retries: number, hint?: string): ProviderError {
  if (APICallError.isInstance(error)) {
    if (error.statusCode === undefined) return networkError(provider, error.url, error.cause ?? error, retries);
    return httpStatusError(provider, error.statusCode, readProviderFaultText(error.responseBody ?? ""), retries, hint);
  }
  return new ProviderError(errorMessage(error), { provider, retries }, { cause: error });
}

async function* decodeParts(
  parts: ReadableStream<LanguageModelV4StreamPart>,
  provider: string,
  reply: ReplyBuilder,
  retries: number,
  idle: IdleWatch,
): AsyncGenerator<StreamEvent> {
  const reasoning = new Map<string, { text: string; metadata?: Record<string, unknown> }>();
  const reader = parts.getReader();
  let finished = false;
  try {
    while (true) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      // Only the wait for the provider counts as idle, not the time the consumer spends on a part.
      idle.touch();
      try {
        next = await reader.read();
        idle.stop();
      } catch (error) {
        throw isAbortError(error) ? error : brokenStreamError(provider, error, retries);
      }
      if (next.done) break;
      const part = next.value;
      let event: StreamEvent | undefined;
      switch (part.type) {
        case "text-delta":
          event = reply.text(part.delta);
          break;
        case "reasoning-start":
        case "reasoning-delta":
        case "reasoning-end": {
          const block = reasoning.get(part.id) ?? { text: "" };
          reasoning.set(part.id, block);
          if (part.providerMetadata) block.metadata = { ...block.metadata, ...part.providerMetadata };
          if (part.type === "reasoning-delta") {
            block.text += part.delta;
            event = reply.reasoning(part.delta);
          }
          break;
        }
        case "tool-call":
          if (!part.providerExecuted) event = reply.toolCall({ id: part.toolCallId, name: part.toolName, arguments: parseInput(provider, part.input, retries) });
          break;
        case "error":
          throw APICallError.isInstance(part.error) ? providerError(provider, part.error, retries) : streamFaultError(provider, faultOf(part.error), retries);
        case "finish": {
          // "interrupted" is how an AI SDK provider reports a stream that stopped before its terminal event.
          if (part.finishReason.unified === "interrupted") throw truncatedStreamError(provider, "its terminal event", retries);
          finished = true;
          const blocks = [...reasoning.values()].map((block): ReasoningBlock => ({
            provider,
            text: block.text,
            ...(block.metadata ? { details: [block.metadata] } : {}),
          }));
          yield* reply.finish({ stopReason: part.finishReason.raw ?? part.finishReason.unified, stats: toStats(part.usage), reasoning: blocks });
          break;
        }
      }
      if (event) yield event;
    }
  } finally {
    // A consumer that stops early (or an error) ends the HTTP request, never leaves it open.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
  if (!finished) throw truncatedStreamError(provider, "the finish event", retries);
}

function parseInput(provider: string, input: string, retries: number): Record<string, unknown> {
  if (input.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch (error) {
    throw new ProviderError(`a tool call's arguments are not JSON (${errorMessage(error)}): ${input.slice(0, 200)}`, { provider, retries });
  }
  return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
}

function faultOf(error: unknown) {
  if (error instanceof Error) return { message: error.message };
  const fault = readProviderFault(error);
  return fault.message !== undefined || fault.type !== undefined ? fault : { message: String(error) };
}

/** The AI SDK's usage, whose input total includes the cached tokens, as weft's Stats. */
export function toStats(usage: LanguageModelV4Usage): Stats {
  const promptTokens = usage.inputTokens.total ?? 0;
  const outputTokens = usage.outputTokens.total ?? 0;
  const stats: Stats = {
    promptTokens,
    outputTokens,
    totalTokens: promptTokens + outputTokens,
    cacheReadTokens: usage.inputTokens.cacheRead ?? 0,
    cacheWriteTokens: usage.inputTokens.cacheWrite ?? 0,
  };
  if (usage.outputTokens.reasoning !== undefined) stats.reasoningTokens = usage.outputTokens.reasoning;
  return stats;
}
