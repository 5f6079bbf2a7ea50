import type { TLocalizedValidationError } from "typebox/error";
import type { TSchema } from "typebox";
import type { Compile } from "./typebox.js";
import { Value } from "./typebox-lite.js";

type Validator = ReturnType<typeof Compile>;

/**
 * Compiled validators by schema, for the process: the executor of every session checks the kernel's
 * tools, and a tool source checks its tools' results, so one cache serves them all.
 */
const compiled = new WeakMap<object, Validator>();

/**
 * typebox's compiler lives in the full entry (421 KB, `./typebox.js`), which a start listing tools never
 * needs: it is loaded on the first check. Until it is there, values are checked by typebox's interpreter
 * (the light entry's `Value`), whose `Check` agrees with the compiled one; the errors are the same either
 * way (a validator's `Errors` is the interpreter's).
 */
let compile: typeof Compile | undefined;
let loading: Promise<void> | undefined;

/** Loads typebox's compiler once (the first check starts it); the checks after it use compiled validators. */
export function loadSchemaCompiler(): Promise<void> {
  loading ??= import("./typebox.js").then((typebox) => {
    compile = typebox.Compile;
  });
  return loading;
}

/**
 * Why `value` does not match the JSON Schema `schema`, one error per failing path; empty when it does.
 * Throws what typebox throws for a schema it cannot check with (an invalid `pattern`), on both paths.
 */
export function schemaErrors(schema: object, value: unknown): TLocalizedValidationError[] {
  const validator = validatorOf(schema);
  if (validator ? validator.Check(value) : Value.Check(schema as TSchema, value)) return [];
  return validator ? validator.Errors(value) : Value.Errors(schema as TSchema, value);
}

function validatorOf(schema: object): Validator | undefined {
  let validator = compiled.get(schema);
  if (!validator) {
    if (!compile) {
      void loadSchemaCompiler();
      return undefined;
    }
    validator = compile(schema as TSchema);
    compiled.set(schema, validator);
  }
  return validator;
}
