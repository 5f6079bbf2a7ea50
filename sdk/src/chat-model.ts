import type { AssistantMessage, Message, Stats, ToolCall } from "./message.js";

/** One relative reasoning ladder; each provider maps it onto its own knob. */
export type Effort = "off" | "low" | "medium" | "high" | "max";
export const EFFORTS: readonly Effort[] = ["off", "low", "medium", "high", "max"];

/** A tool as the model is told about it: what a provider puts in the request's tool list. */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema, `type: "object"`. */
  inputSchema: Record<string, unknown>;
}

export interface ChatRequest {
  messages: Message[];
  tools?: ToolSpec[];
  /** Upper bound on output tokens; a provider default applies when absent. */
  maxTokens?: number;
  temperature?: number;
  /** Aborting ends the HTTP request at once. */
  signal?: AbortSignal;
}

/** Events of `ChatModel.stream`, in the order they arrive on the wire. */
export type StreamEvent =
  | { type: "text"; delta: string }
  | { type: "reasoning"; delta: string }
  | { type: "tool_call"; call: ToolCall }
  | { type: "usage"; stats: Stats }
  /** The provider changed the request to fit the model (dropped thinking, an image...): says what and why. */
  | { type: "notice"; code: string; message: string }
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
