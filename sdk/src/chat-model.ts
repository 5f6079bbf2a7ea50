import type { AssistantMessage, Message, Stats, ToolCall } from "./message.js";
import type { SchemaInput } from "./tool-input.js";

/** One relative reasoning ladder; each provider maps it onto its own knob. */
export type Effort = "off" | "low" | "medium" | "high" | "max";
export const EFFORTS: readonly Effort[] = ["off", "low", "medium", "high", "max"];

/** Whether `value` is a rung of the ladder: for efforts that come as text (flags, config, chat commands). */
export function isEffort(value: unknown): value is Effort {
  return EFFORTS.some((effort) => effort === value);
}

/** A tool as the model is told about it: what a provider puts in the request's tool list. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema, `type: "object"`. */
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  messages: Message[];
  /** Read-only: the agent hands the same list to every call until the tools change; a tap that changes it returns a new one. */
  tools?: readonly ToolSpec[];
  /** Upper bound on output tokens; a provider default applies when absent. */
  maxTokens?: number;
  temperature?: number;
  /** Nucleus sampling; a provider leaves it out where the model refuses it (Anthropic with thinking), with a notice. */
  topP?: number;
  /** Top-k sampling, where the provider has it (Anthropic, Ollama); a notice where it is left out. */
  topK?: number;
  /**
   * Structured output: the final reply is one JSON object following `schema`, validated, and handed
   * back as `AssistantMessage.output`. A reply with tool calls is a step, not the answer: it is not checked.
   */
  output?: OutputRequest;
  /** Aborting ends the HTTP request at once. */
  signal?: AbortSignal;
}

/** What a structured-output request asks for. */
export interface OutputRequest {
  /** typebox, plain JSON Schema (type object) or a Standard Schema that exports JSON Schema (zod 4, valibot, arktype). */
  schema: SchemaInput | Record<string, unknown>;
  /** The schema's name where a provider wants one (1-64 letters, digits, `_`, `-`); default `output`. */
  name?: string;
  /** What the value is, for the model. */
  description?: string;
}

/** Events of `ChatModel.stream`, in the order they arrive on the wire. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "reasoning"; delta: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; stats: Stats }
  /** The provider changed the request to fit the model (dropped thinking, an image...): says what and why. */
  | { type: "notice"; code: string; message: string }
  /** With `output`: the object as far as the reply's JSON has come (keys may still be missing or grow). */
  | { type: "output"; partial: Record<string, unknown> }
  | { type: "done"; message: AssistantMessage };

export interface ModelInfo {
  provider: string;
  model: string;
  /** Context window in tokens. */
  contextWindow: number;
}

/** A chat model of one provider. Both calls stream on the wire; `chat` is `stream` drained. */
export interface ChatModel {
  readonly provider: string;
  readonly model: string;
  readonly effort: Effort;
  /** What `changeModel` may switch to; the active model is always in it. */
  readonly models: readonly string[];
  chat(request: ChatRequest): Promise<AssistantMessage>;
  stream(request: ChatRequest): AsyncIterable<StreamEvent>;
  /** Cached after the first call; rejects with a clear error when the provider does not say. */
  info(): Promise<ModelInfo>;
  /** Validates first and changes nothing on error; a call in flight keeps its settings. */
  changeModel(model: string): void;
  changeEffort(effort: Effort): void;
}
