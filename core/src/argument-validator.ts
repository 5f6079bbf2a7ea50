import { Compile } from "@weft/sdk/typebox";
import type { TSchema } from "typebox";
import { echoed, type ToolDescriptor } from "@weft/sdk";

type Validator = ReturnType<typeof Compile>;

/**
 * Compiled validators by schema, for the process: every session has an executor of its own, and a
 * session's tools are mostly the kernel's, so a cache per executor compiled them again for each session.
 */
const compiled = new WeakMap<object, Validator>();

/**
 * Validates tool arguments against the tool's JSON Schema with typebox, compiled once per schema.
 * typebox's `Compile` takes raw JSON Schema, so MCP, skill, A2A and native tools share one validator.
 */
export class ArgumentValidator {
  /** The problems with `args`, one line per failing path; empty when they are valid. */
  problems(tool: Pick<ToolDescriptor, "inputSchema">, args: Record<string, unknown>): string[] {
    const validator = this.#validator(tool);
    if (validator.Check(args)) return [];
    // The path and message quote the model's own keys and values: capped, so a 10 MB property name is not echoed whole.
    return [...validator.Errors(args)].map((error) => `${echoed(error.instancePath || "(arguments)")}: ${echoed(error.message)}`);
  }

  #validator(tool: Pick<ToolDescriptor, "inputSchema">): Validator {
    let validator = compiled.get(tool.inputSchema);
    if (!validator) {
      validator = Compile(tool.inputSchema as TSchema);
      compiled.set(tool.inputSchema, validator);
    }
    return validator;
  }
}
