import { echoed, loadSchemaChecker, schemaCheckerLoaded, schemaErrors, type ToolDescriptor } from "@weft/sdk";

/** What valid arguments, nearly every call's, have: one shared empty list, where mapping an empty one made a list and a closure per call. */
const NO_PROBLEMS: readonly string[] = Object.freeze([]);

/**
 * Validates tool arguments against the tool's JSON Schema with typebox (`schemaErrors`: interpreted until
 * typebox's compiler has loaded, compiled once per schema for the process after). typebox takes raw JSON
 * Schema, so MCP, skill, A2A and native tools share one validator.
 */
export class ArgumentValidator {
  /**
   * Whether `problems` can run now. typebox's checker loads with the first call to validate (`load`), not
   * with the sdk: a start that only lists tools never needs it.
   */
  get ready(): boolean {
    return schemaCheckerLoaded();
  }

  load(): Promise<void> {
    return loadSchemaChecker();
  }

  /** The problems with `args`, one line per failing path; empty when they are valid. Needs `ready`. */
  problems(tool: Pick<ToolDescriptor, "inputSchema">, args: Record<string, unknown>): readonly string[] {
    // The path and message quote the model's own keys and values: capped, so a 10 MB property name is not echoed whole.
    const errors = schemaErrors(tool.inputSchema, args);
    if (errors.length === 0) return NO_PROBLEMS;
    return errors.map((error) => `${echoed(error.instancePath || "(arguments)")}: ${echoed(error.message)}`);
  }
}
