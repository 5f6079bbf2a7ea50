import { loadSchemaChecker, schemaErrors } from "@weft/sdk";

/**
 * Checks a tool's `structuredContent` against its `outputSchema` (typebox, compiled once per schema after
 * its compiler has loaded: `schemaErrors`). A mismatch is reported, never enforced: the result still reaches the model.
 */
export function outputChecker(schema: Record<string, unknown> | undefined): ((value: unknown) => string[]) | undefined {
  if (!schema) return undefined;
  // Loaded by the execute path before any call runs, so before any result comes back; started here too.
  void loadSchemaChecker();
  return (value) => {
    try {
      return schemaErrors(schema, value).map((error) => `${error.instancePath || "(value)"}: ${error.message}`);
    } catch (error) {
      return [`the outputSchema cannot be compiled: ${error instanceof Error ? error.message : String(error)}`];
    }
  };
}
