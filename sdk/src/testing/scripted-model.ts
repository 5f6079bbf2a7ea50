import { EFFORTS, type ChatModel, type ChatRequest, type Effort, type ModelInfo, type StreamEvent } from "../chat-model.js";
import { WeftError } from "../errors.js";
import { withStructuredOutput } from "../structured-output.js";
import type { AssistantMessage, ReasoningBlock, Stats, ToolCall } from "../message.js";

/** One scripted reply: text, tool calls, or both; or a function of the request; or an error to throw. */
export type ScriptedTurn =
  | string
  | {
      text?: string;
      toolCalls?: (Omit<ToolCall, "id"> & { id?: string })[];
      reasoning?: ReasoningBlock[];
      stats?: Partial<Stats>;
      stopReason?: string;
      /** Milliseconds to wait before answering (honours the request's signal). */
      delayMs?: number;
    }
  | ((request: ChatRequest) => ScriptedTurn)
  | Error;

export interface ScriptedModelOptions {
  provider?: string;
  model?: string;
  models?: string[];
  /** What `info()` reports; `undefined` makes `info()` reject, as a provider that does not say. */
  contextWindow?: number;
  effort?: Effort;
}

/** A ChatModel that plays a script, for tests where no live LLM can run. */
export interface ScriptedModel extends ChatModel {
  /** Every request it was sent, deep-copied at the time. */
  readonly requests: ChatRequest[];
  /** Turns not yet played. */
  readonly remaining: number;
}

export function scriptedModel(turns: ScriptedTurn[], options: ScriptedModelOptions = {}): ScriptedModel {
  const queue = [...turns];
  const requests: ChatRequest[] = [];
  const provider = options.provider ?? "scripted";
  let model = options.model ?? "test-model";
  let effort: Effort = options.effort ?? "medium";
  let callCount = 0;
  const models = [...new Set([model, ...(options.models ?? [])])];

  /** Like a provider's: with `output`, the reply is validated and repaired once (one scripted turn per attempt). */
  function stream(request: ChatRequest): AsyncIterable<StreamEvent> {
    return withStructuredOutput(request, `${provider}/${model}`, play);
  }

  async function* play(request: ChatRequest): AsyncGenerator<StreamEvent> {
    const { signal, output, ...recorded } = request;
    // The output schema may hold functions (zod, valibot): kept by reference, not cloned.
    requests.push({ ...structuredClone(recorded), ...(output ? { output } : {}) });
    let turn = queue.shift();
    if (turn === undefined) throw new WeftError("PROVIDER_ERROR", `${provider}: the script has no turn left for request ${requests.length}`);
    while (typeof turn === "function") turn = turn(request);
    if (turn instanceof Error) throw turn;
    const step = typeof turn === "string" ? { text: turn } : turn;
    if (step.delayMs) await sleep(step.delayMs, signal);
    signal?.throwIfAborted();
    const text = step.text ?? "";
    for (const piece of text.match(/\S+\s*|\s+/g) ?? []) yield { type: "text", delta: piece };
    const toolCalls = (step.toolCalls ?? []).map(({ id, ...call }) => ({ id: id ?? `call_${++callCount}`, ...call }));
    for (const call of toolCalls) yield { type: "tool_call", call };
    const promptTokens = step.stats?.promptTokens ?? 10;
    const outputTokens = step.stats?.outputTokens ?? 5;
    const stats: Stats = {
      promptTokens,
      outputTokens,
      totalTokens: step.stats?.totalTokens ?? promptTokens + outputTokens,
      cacheReadTokens: step.stats?.cacheReadTokens ?? 0,
      cacheWriteTokens: step.stats?.cacheWriteTokens ?? 0,
      ...(step.stats?.reasoningTokens !== undefined ? { reasoningTokens: step.stats.reasoningTokens } : {}),
      ...(step.stats?.costUsd !== undefined ? { costUsd: step.stats.costUsd } : {}),
    };
    yield { type: "usage", stats };
    const message: AssistantMessage = {
      role: "assistant",
      content: text,
      ...(toolCalls.length ? { toolCalls } : {}),
      ...(step.reasoning ? { reasoning: step.reasoning } : {}),
      stats,
      stopReason: step.stopReason ?? (toolCalls.length ? "tool_use" : "end_turn"),
      model: `${provider}/${model}`,
    };
    yield { type: "done", message };
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
    requests,
    get remaining() {
      return queue.length;
    },
    stream,
    async chat(request) {
      for await (const event of stream(request)) if (event.type === "done") return event.message;
      throw new WeftError("PROVIDER_ERROR", `${provider}: stream ended without a message`);
    },
    async info(): Promise<ModelInfo> {
      if (options.contextWindow === undefined) throw new WeftError("PROVIDER_ERROR", `${provider}: the model's context window is unknown`);
      return { provider, model, contextWindow: options.contextWindow };
    },
    changeModel(next) {
      if (!models.includes(next)) throw new WeftError("MODEL_INVALID", `unknown model "${next}"; available: ${models.join(", ")}`);
      model = next;
    },
    changeEffort(next) {
      if (!EFFORTS.includes(next)) throw new WeftError("EFFORT_INVALID", `unknown effort "${next}"; use one of ${EFFORTS.join(", ")}`);
      effort = next;
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    // A signal that fired before the call would never dispatch "abort" again.
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
