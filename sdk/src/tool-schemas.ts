import type { ToolDescriptor } from "./hooks.js";

/** A tool in the OpenAI Chat Completions `tools` array. */
export interface OpenAITool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** A tool in the Anthropic Messages `tools` array. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

/** For applications that run their own loop against the OpenAI wire. */
export function toOpenAITools(tools: ToolDescriptor[]): OpenAITool[] {
  return tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
}

/** For applications that run their own loop against the Anthropic wire. */
export function toAnthropicTools(tools: ToolDescriptor[]): AnthropicTool[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
}
