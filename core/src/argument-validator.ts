import type { Compile } from "@weft/sdk/typebox";
import { Value } from "@weft/sdk/typebox-lite";
import type { TSchema } from "typebox";
import { echoed, type ToolDescriptor } from "@weft/sdk";

type Validator = ReturnType<typeof Compile>;

/**
 * Compiled validators by schema, for the process: every session has an executor of its own, and a
 * session's tools are mostly the kernel's, so a cache per executor compiled them again for each session.
 */
const compiled = new WeakMap<object, Validator>();

/**
 * typebox's compiler, loaded on the first validation: it is ~100 KB that a start listing tools never
 * needs. Until it is there, the calls are checked by typebox's interpreter, whose `Check` agrees with the
 * compiled one; the problems are the same either way (a validator's `Errors` is the interpreter's).
 */
let compile: typeof Compile | undefined;
let loading: Promise<void> | undefined;

/** Loads the compiler once; the validations after it use compiled validators. */
export function loadCompiler(): Promise<void> {
  loading ??= import("@weft/sdk/typebox").then((typebox) => {
    compile = typebox.Compile;
  });
  return loading;
}

/**
 * Validates tool arguments against the tool's JSON Schema with typebox, compiled once per schema.
 * typebox takes raw JSON Schema, so MCP, skill, A2A and native tools share one validator.
 */
export class ArgumentValidator {
  /** The problems with `args`, one line per failing path; empty when they are valid. */
  problems(tool: Pick<ToolDescriptor, "inputSchema">, args: Record<string, unknown>): string[] {
    const validator = this.#validator(tool);
    const schema = tool.inputSchema as TSchema;
    if (validator ? validator.Check(args) : Value.Check(schema, args)) return [];
    // The path and message quote the model's own keys and values: capped, so a 10 MB property name is not echoed whole.
    const errors = validator ? validator.Errors(args) : Value.Errors(schema, args);
    return [...errors].map((error) => `${echoed(error.instancePath || "(arguments)")}: ${echoed(error.message)}`);
  }

  #validator(tool: Pick<ToolDescriptor, "inputSchema">): Validator | undefined {
    let validator = compiled.get(tool.inputSchema);
    if (!validator) {
      if (!compile) {
        void loadCompiler();
        return undefined;
      }
      validator = compile(tool.inputSchema as TSchema);
      compiled.set(tool.inputSchema, validator);
    }
    return validator;
  }
}
