/**
 * The provider-neutral transcript. Every provider plugin maps these to and from its own wire format,
 * so one conversation can move between providers and be compacted the same way for all.
 */

/** A tool call the model asked for. `arguments` is always a parsed object, never a JSON string. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /**
   * Set when the text the model wrote for the arguments was not a JSON object (`arguments` is then
   * `{}`): the agent answers the call with an error the model can act on instead of running the tool.
   */
  invalidArguments?: InvalidToolArguments;
}

export interface InvalidToolArguments {
  /** The argument text as the model wrote it. */
  text: string;
  /** What is wrong with it: `not valid JSON: <parser message>` or `not a JSON object but <kind>`. */
  problem: string;
}

/**
 * Reasoning the provider needs replayed on the next turn, kept verbatim. `provider` says whose it is:
 * a provider replays only its own blocks (an Anthropic signature means nothing to OpenRouter).
 */
export interface ReasoningBlock {
  provider: string;
  /** Human-readable reasoning text, when the provider shows it. */
  text?: string;
  /** Anthropic: the signature of a thinking block. */
  signature?: string;
  /** Anthropic: the opaque data of a redacted_thinking block. */
  redacted?: string;
  /** OpenRouter: the `reasoning_details` array, sent back unmodified. */
  details?: unknown[];
}

/** Token accounting of one model reply. `promptTokens` includes cached tokens. */
export interface Stats {
  promptTokens: number;
  outputTokens: number;
  totalTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens?: number;
  /** What the reply cost in US dollars: as the provider reported it, else from a price table. */
  costUsd?: number;
}

export interface SystemMessage {
  role: "system";
  content: string;
}

/**
 * Content beyond text, for user messages and tool results. Bytes travel base64 so a transcript stays
 * plain JSON (session stores keep it as is); a URL is passed to providers that fetch URLs.
 */
export type ContentPart = TextPart | ImagePart | DocumentPart;

export interface TextPart {
  type: "text";
  text: string;
}

/** A picture, by its bytes (base64) or a URL. */
export interface ImagePart {
  type: "image";
  /** `image/png`, `image/jpeg`, `image/gif`, `image/webp`. */
  mediaType: string;
  /** Base64 of the bytes; or give `url`. */
  data?: string;
  url?: string;
}

/** A document (PDF), by its bytes (base64) or a URL. */
export interface DocumentPart {
  type: "document";
  /** `application/pdf`. */
  mediaType: string;
  data?: string;
  url?: string;
  /** A file name, shown to models that take one. */
  name?: string;
}

export interface UserMessage {
  role: "user";
  /** The text; with `parts`, what a text-only reader (compaction, logs) sees. */
  content: string;
  /** The message's content in order, when it holds more than text; providers send these instead of `content`. */
  parts?: ContentPart[];
}

export interface AssistantMessage {
  role: "assistant";
  content: string;
  toolCalls?: ToolCall[];
  reasoning?: ReasoningBlock[];
  stats?: Stats;
  /** The provider's own stop reason, untouched (`end_turn`, `tool_use`, `stop`, `tool_calls`, ...). */
  stopReason?: string;
  /** `provider/model` that wrote this message. */
  model?: string;
  /** With a structured-output request: the reply's value, validated against the schema. */
  output?: Record<string, unknown>;
}

export interface ToolMessage {
  role: "tool";
  toolCallId: string;
  toolName: string;
  content: string;
  /** Images or documents the tool returned, in order with its text; providers send these instead of `content`. */
  parts?: ContentPart[];
  isError?: boolean;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

/** Stats with every counter at zero, for summing. */
export function emptyStats(): Stats {
  return { promptTokens: 0, outputTokens: 0, totalTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

/** Adds `b` into a copy of `a`; reasoning tokens are summed only where either side reports them. */
export function addStats(a: Stats, b: Stats): Stats {
  const sum: Stats = {
    promptTokens: a.promptTokens + b.promptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
  };
  if (a.reasoningTokens !== undefined || b.reasoningTokens !== undefined) {
    sum.reasoningTokens = (a.reasoningTokens ?? 0) + (b.reasoningTokens ?? 0);
  }
  if (a.costUsd !== undefined || b.costUsd !== undefined) sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return sum;
}
