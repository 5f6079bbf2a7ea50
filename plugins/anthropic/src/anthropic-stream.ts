import { ProviderError, isRecord, parseToolArguments, type ReasoningBlock, type Stats, type StreamEvent, type ToolCall } from "@weft/sdk";
import { ReplyBuilder, streamFaultError, truncatedStreamError, readProviderFault } from "@weft/sdk/provider";
import { ANTHROPIC } from "./anthropic-request.js";

/** What the decoder needs to know about the call. */
export interface AnthropicStreamContext {
  /** `anthropic/<model>`, recorded on the message. */
  model: string;
  /** Retries before this response, for errors. */
  retries: number;
}

interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens_details?: { thinking_tokens?: number };
}

interface OpenBlock {
  type: string;
  text: string;
  signature?: string;
  data?: string;
  id?: string;
  name?: string;
  input?: Record<string, unknown>;
  json: string;
}

/**
 * Turns Messages API stream events (parsed `data:` payloads) into StreamEvents. Text and thinking
 * stream as they come, a tool call is emitted at its `content_block_stop`, usage and done at
 * `message_stop`. Server-side tool blocks (code execution, web search) are passed over. An `error`
 * event, or an end before `message_stop`, fails the call.
 */
export async function* decodeAnthropicStream(payloads: AsyncIterable<unknown> | Iterable<unknown>, context: AnthropicStreamContext): AsyncGenerator<StreamEvent> {
  const reply = new ReplyBuilder(context.model);
  const blocks = new Map<number, OpenBlock>();
  const reasoning: { index: number; block: ReasoningBlock }[] = [];
  let usage: Usage = {};
  let stopReason: string | undefined;
  let started = false;

  for await (const payload of withStartContent(payloads)) {
    const event = payload as Record<string, any>;
    switch (event?.type) {
      case "message_start":
        // A second message_start is a second reply on the same stream (a proxy that retried
        // upstream, a replayed buffer): merging the two would make an answer nobody wrote.
        if (started) {
          throw new ProviderError("a second message_start arrived mid-stream, so two replies would have been merged; the reply was dropped, try again", {
            provider: ANTHROPIC,
            retries: context.retries,
          });
        }
        started = true;
        usage = mergeUsage({}, event.message?.usage);
        break;
      case "content_block_start": {
        const start = event.content_block ?? {};
        const block: OpenBlock = { type: String(start.type), text: "", json: "" };
        blocks.set(event.index, block);
        if (block.type === "text") {
          const text = reply.text(start.text);
          if (text) yield text;
        } else if (block.type === "thinking") {
          block.text = start.thinking ?? "";
          block.signature = start.signature || undefined;
          const delta = reply.reasoning(start.thinking);
          if (delta) yield delta;
        } else if (block.type === "redacted_thinking") {
          block.data = start.data;
        } else if (block.type === "tool_use") {
          block.id = start.id;
          block.name = start.name;
          block.input = start.input;
        }
        break;
      }
      case "content_block_delta": {
        const block = blocks.get(event.index);
        const delta = event.delta ?? {};
        if (delta.type === "text_delta") {
          const text = reply.text(delta.text);
          if (text) yield text;
        } else if (delta.type === "thinking_delta" && block) {
          block.text += delta.thinking ?? "";
          const thinking = reply.reasoning(delta.thinking);
          if (thinking) yield thinking;
        } else if (delta.type === "signature_delta" && block) {
          block.signature = (block.signature ?? "") + (delta.signature ?? "");
        } else if (delta.type === "input_json_delta" && block) {
          block.json += delta.partial_json ?? "";
        }
        break;
      }
      case "content_block_stop": {
        const block = blocks.get(event.index);
        if (block?.type === "tool_use") yield reply.toolCall({ id: block.id ?? "", name: block.name ?? "", ...toolInput(block) });
        else if (block?.type === "thinking") reasoning.push({ index: event.index, block: { provider: ANTHROPIC, text: block.text, ...(block.signature ? { signature: block.signature } : {}) } });
        else if (block?.type === "redacted_thinking" && block.data !== undefined) reasoning.push({ index: event.index, block: { provider: ANTHROPIC, redacted: block.data } });
        break;
      }
      case "message_delta":
        if (typeof event.delta?.stop_reason === "string") stopReason = event.delta.stop_reason;
        usage = mergeUsage(usage, event.usage);
        break;
      case "message_stop":
        yield* reply.finish({ stopReason, stats: toStats(usage), reasoning: reasoning.sort((a, b) => a.index - b.index).map((entry) => entry.block) });
        return;
      case "error":
        throw streamFaultError(ANTHROPIC, readProviderFault(event), context.retries);
      default:
        break; // ping, and event types added after this was written
    }
  }
  throw truncatedStreamError(ANTHROPIC, "message_stop", context.retries);
}

/**
 * Blocks that arrive whole inside `message_start.message.content` (a tool call some gateways put
 * there) become the start and stop events of blocks, ahead of the streamed ones, so they are not lost.
 */
async function* withStartContent(payloads: AsyncIterable<unknown> | Iterable<unknown>): AsyncGenerator<unknown> {
  for await (const payload of payloads) {
    const event = payload as Record<string, any>;
    const content: unknown[] = event?.type === "message_start" && Array.isArray(event.message?.content) ? event.message.content : [];
    yield payload;
    for (const [offset, block] of content.entries()) {
      const index = -content.length + offset;
      yield { type: "content_block_start", index, content_block: block };
      yield { type: "content_block_stop", index };
    }
  }
}

/** A non-streamed Messages API response, as the events a stream of it would have sent. */
export function messageAsEvents(message: Record<string, unknown>): unknown[] {
  const content: Record<string, unknown>[] = Array.isArray(message.content) ? message.content : [];
  return [
    { type: "message_start", message: { ...message, content: [] } },
    ...content.flatMap((block, index) => [
      { type: "content_block_start", index, content_block: block },
      { type: "content_block_stop", index },
    ]),
    { type: "message_delta", delta: { stop_reason: message.stop_reason }, usage: message.usage },
    { type: "message_stop" },
  ];
}

function toolInput(block: OpenBlock): Pick<ToolCall, "arguments" | "invalidArguments"> {
  // The stream sends `input: {}` at the start and the real input as JSON deltas, possibly none.
  if (block.json.trim() === "") return { arguments: isRecord(block.input) ? block.input : {} };
  return parseToolArguments(block.json);
}

/** message_delta usage is cumulative: its numbers replace message_start's. */
function mergeUsage(base: Usage, next: unknown): Usage {
  const merged: Usage = { ...base };
  if (!isRecord(next)) return merged;
  for (const key of ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"] as const) {
    const value = next[key];
    if (typeof value === "number") merged[key] = value;
  }
  if (isRecord(next.output_tokens_details)) merged.output_tokens_details = next.output_tokens_details as Usage["output_tokens_details"];
  return merged;
}

function toStats(usage: Usage): Stats {
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const promptTokens = (usage.input_tokens ?? 0) + cacheWrite + cacheRead;
  const outputTokens = usage.output_tokens ?? 0;
  const stats: Stats = { promptTokens, outputTokens, totalTokens: promptTokens + outputTokens, cacheReadTokens: cacheRead, cacheWriteTokens: cacheWrite };
  const thinking = usage.output_tokens_details?.thinking_tokens;
  if (typeof thinking === "number") stats.reasoningTokens = thinking;
  return stats;
}
