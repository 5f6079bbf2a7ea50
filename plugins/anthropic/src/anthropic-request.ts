import type { ChatRequest, Effort, Message, ToolSpec } from "@weft/sdk";

/** The provider id, on ReasoningBlocks too: only blocks with it are replayed to Anthropic. */
export const ANTHROPIC = "anthropic";

type CacheControl = { type: "ephemeral" };
const EPHEMERAL: CacheControl = { type: "ephemeral" };

export type AnthropicBlock =
  | { type: "text"; text: string; cache_control?: CacheControl }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; cache_control?: CacheControl }
  | { type: "tool_result"; tool_use_id: string; content: string; is_error?: true; cache_control?: CacheControl };

export interface AnthropicTurn {
  role: "user" | "assistant";
  content: AnthropicBlock[];
}

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

export interface AnthropicBody {
  model: string;
  max_tokens: number;
  system?: { type: "text"; text: string; cache_control?: CacheControl }[];
  messages: AnthropicTurn[];
  tools?: AnthropicTool[];
  thinking?: { type: "adaptive" };
  output_config?: { effort: Exclude<Effort, "off"> };
  temperature?: number;
  stream: true;
}

export interface AnthropicCall {
  model: string;
  effort: Effort;
  maxTokens: number;
  /** Marks the last tool, the system block and the last message for prompt caching. */
  promptCaching: boolean;
}

/**
 * The Messages API body for a provider-neutral request: system messages joined into one system
 * block, consecutive same-role turns merged (parallel tool results become one user turn), thinking
 * replayed verbatim with its signature, and up to three of Anthropic's four cache breakpoints.
 */
export function anthropicRequestBody(request: ChatRequest, call: AnthropicCall): AnthropicBody {
  const systems: string[] = [];
  const messages: AnthropicTurn[] = [];
  for (const message of request.messages) {
    if (message.role === "system") systems.push(message.content);
    else appendTurn(messages, toTurn(message));
  }
  const tools = request.tools ?? [];
  const body: AnthropicBody = {
    model: call.model,
    max_tokens: request.maxTokens ?? call.maxTokens,
    ...(systems.length > 0 ? { system: [{ type: "text" as const, text: systems.join("\n\n") }] } : {}),
    messages,
    ...(tools.length > 0 ? { tools: tools.map(toTool) } : {}),
    ...(call.effort !== "off" ? { thinking: { type: "adaptive" as const }, output_config: { effort: call.effort } } : {}),
    ...(request.temperature !== undefined ? { temperature: request.temperature } : {}),
    stream: true,
  };
  if (call.promptCaching) markCacheBreakpoints(body);
  return body;
}

function toTurn(message: Exclude<Message, { role: "system" }>): AnthropicTurn {
  switch (message.role) {
    case "user":
      return { role: "user", content: [{ type: "text", text: message.content }] };
    case "tool":
      return {
        role: "user",
        content: [{ type: "tool_result", tool_use_id: message.toolCallId, content: message.content, ...(message.isError ? { is_error: true as const } : {}) }],
      };
    case "assistant": {
      const content: AnthropicBlock[] = [];
      for (const block of message.reasoning ?? []) {
        if (block.provider !== ANTHROPIC) continue;
        if (block.redacted !== undefined) content.push({ type: "redacted_thinking", data: block.redacted });
        else if (block.signature !== undefined) content.push({ type: "thinking", thinking: block.text ?? "", signature: block.signature });
      }
      // Anthropic rejects empty text blocks; a tool-only reply has none.
      if (message.content) content.push({ type: "text", text: message.content });
      for (const call of message.toolCalls ?? []) content.push({ type: "tool_use", id: call.id, name: call.name, input: call.arguments ?? {} });
      return { role: "assistant", content };
    }
  }
}

/** Merges into the previous turn when the role repeats; drops turns with nothing to say. */
function appendTurn(turns: AnthropicTurn[], turn: AnthropicTurn): void {
  if (turn.content.length === 0) return;
  const last = turns.at(-1);
  if (last?.role === turn.role) last.content.push(...turn.content);
  else turns.push(turn);
}

function toTool(tool: ToolSpec): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema };
}

function markCacheBreakpoints(body: AnthropicBody): void {
  const lastTool = body.tools?.at(-1);
  if (lastTool) lastTool.cache_control = EPHEMERAL;
  const system = body.system?.[0];
  if (system) system.cache_control = EPHEMERAL;
  const blocks = body.messages.at(-1)?.content ?? [];
  // Thinking blocks cannot carry cache_control: mark the last block that can.
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i]!;
    if (block.type === "text" || block.type === "tool_use" || block.type === "tool_result") {
      block.cache_control = EPHEMERAL;
      return;
    }
  }
}
