import { createHash } from "node:crypto";
import { parseToolArguments, type Stats, type StreamEvent, type ToolCall } from "@weft/sdk";
import { ReplyBuilder, readProviderFault, streamFaultError, truncatedStreamError } from "@weft/sdk/provider";
import { OLLAMA, SYNTHETIC_CALL_ID_PREFIX } from "./ollama-request.js";

export interface OllamaStreamContext {
  /** `ollama/<model>`, recorded on the message. */
  model: string;
  retries: number;
}

/**
 * Turns `/api/chat` NDJSON lines into StreamEvents: `message.content` as text, `message.thinking` as
 * reasoning, tool calls as they arrive (whole, with object arguments), usage and done at the
 * `done: true` line. An `{"error": ...}` line, or an end without `done: true`, fails the call.
 */
export async function* decodeOllamaStream(lines: AsyncIterable<unknown> | Iterable<unknown>, context: OllamaStreamContext): AsyncGenerator<StreamEvent> {
  const reply = new ReplyBuilder(context.model);
  let thinking = "";
  let calls = 0;
  for await (const line of lines) {
    if (!isObject(line)) continue;
    if (line.error !== undefined && line.error !== null) throw streamFaultError(OLLAMA, readProviderFault(line), context.retries);
    const message = isObject(line.message) ? line.message : {};
    if (typeof message.thinking === "string" && message.thinking !== "") {
      thinking += message.thinking;
      yield reply.reasoning(message.thinking)!;
    }
    const text = reply.text(typeof message.content === "string" ? message.content : undefined);
    if (text) yield text;
    for (const raw of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      yield reply.toolCall(toToolCall(raw, calls++, String(line.created_at ?? "")));
    }
    if (line.done === true) {
      yield* reply.finish({
        stopReason: typeof line.done_reason === "string" ? line.done_reason : undefined,
        stats: toStats(line),
        reasoning: thinking ? [{ provider: OLLAMA, text: thinking }] : [],
      });
      return;
    }
  }
  throw truncatedStreamError(OLLAMA, 'its "done": true line', context.retries);
}

function toToolCall(raw: unknown, position: number, createdAt: string): ToolCall {
  const fn = isObject(raw) && isObject(raw.function) ? raw.function : {};
  const name = typeof fn.name === "string" ? fn.name : "";
  // Ollama sends the arguments as an object; a string (an OpenAI-style proxy) is parsed like the other wires.
  const parsed = typeof fn.arguments === "string" ? parseToolArguments(fn.arguments) : { arguments: isObject(fn.arguments) ? fn.arguments : {} };
  const id = isObject(raw) && typeof raw.id === "string" && raw.id !== "" ? raw.id : syntheticId(createdAt, position, name, parsed.arguments);
  return { id, name, ...parsed };
}

/** Ollama often sends no call id: make a stable one from what identifies the call in this reply. */
function syntheticId(createdAt: string, position: number, name: string, args: Record<string, unknown>): string {
  const hash = createHash("sha256").update(`${createdAt}\n${position}\n${name}\n${JSON.stringify(args)}`).digest("hex");
  return `${SYNTHETIC_CALL_ID_PREFIX}${hash.slice(0, 16)}`;
}

function toStats(line: Record<string, unknown>): Stats {
  const promptTokens = typeof line.prompt_eval_count === "number" ? line.prompt_eval_count : 0;
  const outputTokens = typeof line.eval_count === "number" ? line.eval_count : 0;
  return { promptTokens, outputTokens, totalTokens: promptTokens + outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0 };
}

function isObject(value: unknown): value is Record<string, any> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
