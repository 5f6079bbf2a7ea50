import { resolveObjectSchema } from "./tool-input.js";
import type { SchemaInput, SchemaOutput } from "./tool-input.js";
import type { Tool, ToolAnnotations, ToolContext, ToolResult, ToolSource } from "./tool.js";

export interface ToolDefinition<Input extends SchemaInput> {
  name: string;
  description: string;
  /**
   * The arguments' schema: typebox, plain JSON Schema, or a Standard Schema that exports JSON Schema
   * (zod 4, arktype, valibot through `toStandardJsonSchema`). Its JSON Schema is what the model sees.
   */
  input: Input;
  source?: ToolSource;
  annotations?: ToolAnnotations;
  timeoutMs?: number;
  /** `args` has already been validated by the kernel: by the schema library's own validator when it has one. Plain text is a result's `output`. */
  execute(args: SchemaOutput<Input>, ctx: ToolContext): Promise<ToolResult | string> | ToolResult | string;
}

/** A tool whose arguments are typed from its schema; throws SCHEMA_INVALID, naming the tool, for a value that is no schema. */
export function defineTool<Input extends SchemaInput>(definition: ToolDefinition<Input>): Tool<SchemaOutput<Input>> {
  const { input, execute, ...rest } = definition;
  const schema = resolveObjectSchema(`tool ${definition.name}`, input);
  return {
    ...rest,
    inputSchema: schema.jsonSchema,
    ...(schema.validate ? { validateInput: schema.validate } : {}),
    execute: async (args, ctx) => {
      const result = await execute(args, ctx);
      return typeof result === "string" ? { output: result } : result;
    },
  };
}
