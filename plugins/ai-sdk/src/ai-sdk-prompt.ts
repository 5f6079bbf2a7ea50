import type { LanguageModelV4CallOptions, LanguageModelV4FunctionTool, LanguageModelV4Message, LanguageModelV4Prompt, SharedV4FileData } from "@ai-sdk/provider";
import { messageParts, outputInstruction, type ChatRequest, type Effort, type Message, type ReasoningBlock, type ResolvedOutput, type UserMessage } from "@weft/sdk";

type ProviderOptions = NonNullable<LanguageModelV4CallOptions["providerOptions"]>;

/**
 * weft's neutral transcript as the AI SDK's provider prompt. Reasoning is replayed only to the
 * provider that wrote it (its metadata, an Anthropic signature say, means nothing to another).
 */
export function toAiSdkPrompt(messages: readonly Message[], provider: string): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Message[] = [];
  for (const message of messages) {
    switch (message.role) {
      case "system":
        prompt.push({ role: "system", content: message.content });
        break;
      case "user":
        prompt.push({ role: "user", content: userContent(message) });
        break;
      case "assistant": {
        const content: Extract<LanguageModelV4Message, { role: "assistant" }>["content"] = [];
        for (const block of message.reasoning ?? []) {
          if (block.provider === provider) content.push({ type: "reasoning", text: block.text ?? "", ...replayOptions(block) });
        }
        if (message.content) content.push({ type: "text", text: message.content });
        for (const call of message.toolCalls ?? []) content.push({ type: "tool-call", toolCallId: call.id, toolName: call.name, input: call.arguments });
        prompt.push({ role: "assistant", content });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result" as const,
          toolCallId: message.toolCallId,
          toolName: message.toolName,
          output: message.isError ? { type: "error-text" as const, value: message.content } : { type: "text" as const, value: message.content },
        };
        // Results of one round go in one tool message, as the AI SDK's own prompt conversion does.
        const last = prompt.at(-1);
        if (last?.role === "tool") last.content.push(part);
        else prompt.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return prompt;
}

function replayOptions(block: ReasoningBlock): { providerOptions?: ProviderOptions } {
  const metadata = block.details?.[0];
  return metadata && typeof metadata === "object" ? { providerOptions: metadata as ProviderOptions } : {};
}

/** weft's effort ladder onto the AI SDK's `reasoning` option; `off` sends nothing (the provider's default). */
const REASONING: Record<Effort, LanguageModelV4CallOptions["reasoning"]> = {
  off: undefined,
  low: "low",
  medium: "medium",
  high: "high",
  max: "max",
};

/** The call options of one request; absent settings are left out, so the provider's defaults hold. */
export function toCallOptions(request: ChatRequest, provider: string, effort: Effort, maxTokens: number | undefined, output?: ResolvedOutput): LanguageModelV4CallOptions {
  // The schema is also stated in a system message: an AI SDK provider without structured outputs
  // (openai-compatible by default) sends JSON mode without the schema, with only a warning.
  const messages: readonly Message[] = output ? [{ role: "system", content: outputInstruction(output) }, ...request.messages] : request.messages;
  const options: LanguageModelV4CallOptions = { prompt: toAiSdkPrompt(messages, provider) };
  const outputTokens = request.maxTokens ?? maxTokens;
  if (outputTokens !== undefined) options.maxOutputTokens = outputTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.topP = request.topP;
  if (request.topK !== undefined) options.topK = request.topK;
  // The AI SDK provider maps a JSON response format onto its API's structured output (or JSON mode);
  // weft validates and repairs the reply as for every provider.
  if (output) {
    options.responseFormat = { type: "json", schema: output.jsonSchema, name: output.name, ...(output.description !== undefined ? { description: output.description } : {}) };
  }
  if (request.tools && request.tools.length > 0) {
    options.tools = request.tools.map(
      (tool): LanguageModelV4FunctionTool => ({ type: "function", name: tool.name, description: tool.description, inputSchema: tool.inputSchema }),
    );
  }
  const reasoning = REASONING[effort];
  if (reasoning !== undefined) options.reasoning = reasoning;
  if (request.signal) options.abortSignal = request.signal;
  return options;
}

/** A user message's parts as the AI SDK's: text, and images and documents as file parts (bytes or URL). */
function userContent(message: UserMessage): Extract<LanguageModelV4Message, { role: "user" }>["content"] {
  return messageParts(message).map((part) => {
    if (part.type === "text") return { type: "text", text: part.text };
    const data: SharedV4FileData = part.data !== undefined ? { type: "data", data: part.data } : { type: "url", url: new URL(part.url ?? "") };
    return { type: "file", mediaType: part.mediaType, data, ...(part.type === "document" && part.name ? { filename: part.name } : {}) };
  });
}
