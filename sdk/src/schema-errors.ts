import type { TLocalizedValidationError } from "typebox/error";
import type { TSchema } from "typebox";
import type { Compile } from "./typebox.js";
import type { Value } from "./typebox-lite.js";

type Validator = ReturnType<typeof Compile>;

/**
 * Compiled validators by schema, for the process: the executor of every session checks the kernel's
 * tools, and a tool source checks its tools' results, so one cache serves them all.
 */
const compiled = new WeakMap<object, Validator>();

/**
 * typebox's checker is not loaded with the sdk: a start that lists tools checks no value, and the checker
 * (the light entry's `Value`, 130 KB) would cost every start ~7 ms. `loadSchemaChecker` loads it; the
 * compiler (the full entry, 421 KB, `./typebox.js`) loads behind it on the first check. Until the compiler
 * is there, values are checked by the interpreter, whose `Check` agrees with the compiled one; the errors
 * are the same either way (a validator's `Errors` is the interpreter's).
 */
let interpreter: typeof Value | undefined;
let checkerLoading: Promise<void> | undefined;
let compile: typeof Compile | undefined;
let compilerLoading: Promise<void> | undefined;

/** Loads typebox's checker once; `schemaErrors` can run once this has resolved. */
export function loadSchemaChecker(): Promise<void> {
  checkerLoading ??= import("./typebox-lite.js").then((lite) => {
    interpreter = lite.Value;
  });
  return checkerLoading;
}

/** Whether `schemaErrors` can run now: `loadSchemaChecker` has resolved. */
export function schemaCheckerLoaded(): boolean {
  return interpreter !== undefined;
}

/** Loads typebox's compiler once (the first check starts it); the checks after it use compiled validators. */
export function loadSchemaCompiler(): Promise<void> {
  compilerLoading ??= Promise.all([loadSchemaChecker(), import("./typebox.js")]).then(([, typebox]) => {
    compile = typebox.Compile;
  });
  return compilerLoading;
}

/**
 * Why `value` does not match the JSON Schema `schema`, one error per failing path; empty when it does.
 * Needs the checker: call it once `loadSchemaChecker()` has resolved (it throws before, saying so).
 * Throws what typebox throws for a schema it cannot check with (an invalid `pattern`), on both paths.
 */
export function schemaErrors(schema: object, value: unknown): TLocalizedValidationError[] {
  if (!interpreter) throw new Error("schemaErrors: typebox's checker is not loaded; await loadSchemaChecker() first");
  const validator = validatorOf(schema);
  if (validator ? validator.Check(value) : interpreter.Check(schema as TSchema, value)) return [];
  return validator ? validator.Errors(value) : interpreter.Errors(schema as TSchema, value);
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
