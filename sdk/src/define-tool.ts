import type { Static, TSchema } from "typebox";
import type { Tool, ToolAnnotations, ToolContext, ToolResult, ToolSource } from "./tool.js";

export interface ToolDefinition<Input extends TSchema> {
  name: string;
  description: string;
  /** typebox schema of the arguments; it is the tool's JSON Schema as published. */
  input: Input;
  source?: ToolSource;
  annotations?: ToolAnnotations;
  timeoutMs?: number;
  /** `args` has already been validated against `input` by the kernel. Plain text is a result's `output`. */
  execute(args: Static<Input>, ctx: ToolContext): Promise<ToolResult | string> | ToolResult | string;
}

/** A tool whose arguments are typed from its typebox schema. */
export function defineTool<Input extends TSchema>(definition: ToolDefinition<Input>): Tool<Static<Input>> {
  const { input, execute, ...rest } = definition;
  return {
    ...rest,
    // A typebox schema is plain JSON Schema; a JSON round trip drops typebox's symbol keys.
    inputSchema: JSON.parse(JSON.stringify(input)) as Record<string, unknown>,
    execute: async (args, ctx) => {
      const result = await execute(args, ctx);
      return typeof result === "string" ? { output: result } : result;
    },
  };
}
