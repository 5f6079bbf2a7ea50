/**
 * Typed access to a tool's arguments that returns errors instead of throwing, so a tool can turn a bad
 * field straight into a result the model reads:
 *
 *   const path = new Arguments(args).getString("path");
 *   if (!path.ok) return errorResult(path.error);
 */
export type Field<T> = { ok: true; value: T } | { ok: false; error: string };

type Check<T> = { what: string; accepts(value: unknown): value is T };

const isString: Check<string> = { what: "a string", accepts: (v): v is string => typeof v === "string" };
// JSON has one number type: 3.0 arrives as 3, so any whole number is an integer.
const isInt: Check<number> = { what: "an integer", accepts: (v): v is number => Number.isInteger(v) };
const isNumber: Check<number> = { what: "a number", accepts: (v): v is number => typeof v === "number" && Number.isFinite(v) };
const isBool: Check<boolean> = { what: "a boolean", accepts: (v): v is boolean => typeof v === "boolean" };
const isObject: Check<Record<string, unknown>> = {
  what: "an object",
  accepts: (v): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v),
};

function arrayOf<T>(item: Check<T>, what: string): Check<T[]> {
  return { what, accepts: (v): v is T[] => Array.isArray(v) && v.every((element) => item.accepts(element)) };
}
const isStrings = arrayOf(isString, "an array of strings");
const isInts = arrayOf(isInt, "an array of integers");
const isNumbers = arrayOf(isNumber, "an array of numbers");
const isObjects = arrayOf(isObject, "an array of objects");

export class Arguments {
  constructor(private readonly args: Record<string, unknown>) {}

  getString(name: string): Field<string> { return this.#get(name, isString); }
  getInt(name: string): Field<number> { return this.#get(name, isInt); }
  getNumber(name: string): Field<number> { return this.#get(name, isNumber); }
  getBool(name: string): Field<boolean> { return this.#get(name, isBool); }
  getObject(name: string): Field<Record<string, unknown>> { return this.#get(name, isObject); }
  getArrayOfStrings(name: string): Field<string[]> { return this.#get(name, isStrings); }
  getArrayOfInts(name: string): Field<number[]> { return this.#get(name, isInts); }
  getArrayOfNumbers(name: string): Field<number[]> { return this.#get(name, isNumbers); }
  getArrayOfObjects(name: string): Field<Record<string, unknown>[]> { return this.#get(name, isObjects); }

  /** The `...Or` variants give `fallback` for a missing (or null) field; a wrong type is still an error. */
  getStringOr(name: string, fallback: string): Field<string> { return this.#getOr(name, isString, fallback); }
  getIntOr(name: string, fallback: number): Field<number> { return this.#getOr(name, isInt, fallback); }
  getNumberOr(name: string, fallback: number): Field<number> { return this.#getOr(name, isNumber, fallback); }
  getBoolOr(name: string, fallback: boolean): Field<boolean> { return this.#getOr(name, isBool, fallback); }
  getObjectOr(name: string, fallback: Record<string, unknown>): Field<Record<string, unknown>> { return this.#getOr(name, isObject, fallback); }
  getArrayOfStringsOr(name: string, fallback: string[]): Field<string[]> { return this.#getOr(name, isStrings, fallback); }

  #get<T>(name: string, check: Check<T>): Field<T> {
    const value = this.args[name];
    if (value === undefined || value === null) return { ok: false, error: `field not found: ${name}` };
    if (!check.accepts(value)) return { ok: false, error: `invalid field type: ${name} is not ${check.what}` };
    return { ok: true, value };
  }

  #getOr<T>(name: string, check: Check<T>, fallback: T): Field<T> {
    const value = this.args[name];
    return value === undefined || value === null ? { ok: true, value: fallback } : this.#get(name, check);
  }
}
