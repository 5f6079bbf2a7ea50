import type { TSchema } from "typebox";
import { Compile } from "@weft/sdk/typebox";

/**
 * Checks a tool's `structuredContent` against its `outputSchema` (typebox compiles the raw JSON Schema once
 * per tool). A mismatch is reported, never enforced: the result still reaches the model.
 */
export function outputChecker(schema: Record<string, unknown> | undefined): ((value: unknown) => string[]) | undefined {
  if (!schema) return undefined;
  let validator: ReturnType<typeof Compile> | undefined;
  return (value) => {
    try {
      validator ??= Compile(schema as TSchema);
    } catch (error) {
      return [`the outputSchema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`];
    }
    if (validator.Check(value)) return [];
    return [...validator.Errors(value)].map((error) => `${error.instancePath || "(value)"}: ${error.message}`);
  };
}
