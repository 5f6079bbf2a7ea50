import { issuePointer, resolveObjectSchema, type StandardSchemaV1 } from "@weft/sdk";
import type { OptionProblem } from "./plugin-options-error.js";
import { unknownOptions } from "./unknown-options.js";

/** Whether a plugin's options schema is a Standard Schema (zod 4, valibot, arktype) rather than typebox. */
export function isStandardSchema(schema: unknown): schema is StandardSchemaV1 {
  // arktype's types are functions.
  return (typeof schema === "object" || typeof schema === "function") && schema !== null && "~standard" in schema;
}

/**
 * Options through the library's own validator, whose output (defaults, coercions, transforms) is what
 * `setup` receives. Keys the exported JSON Schema does not name are reported first, as for typebox:
 * zod and valibot objects strip unknown keys silently, so `files: { rot: ./ws }` would pass.
 */
export async function resolveStandardOptions(
  plugin: string,
  schema: StandardSchemaV1,
  options: unknown,
): Promise<{ value: unknown } | { problems: OptionProblem[] }> {
  // Refuses a schema that exports no object JSON Schema, naming the plugin (SCHEMA_INVALID).
  const { jsonSchema } = resolveObjectSchema(`plugin ${plugin} options`, schema);
  const unknown = unknownOptions(jsonSchema, options);
  if (unknown.length > 0) return { problems: unknown };
  const result = await schema["~standard"].validate(options);
  if (result.issues) return { problems: result.issues.map((issue) => ({ path: issuePointer(issue), message: issue.message })) };
  return { value: result.value };
}
