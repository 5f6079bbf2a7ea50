import { isRecord } from "@weft/sdk";
import type { ConfigDocument, ConfigPath } from "./config-document.js";

/** A JSON Schema node, as `weft config schema` prints it. */
export type JsonSchema = Record<string, unknown>;

/** What a config error says when a value fails a node: its problem, and how an unknown key of it is named. */
interface Wording {
  problem?: string | ((value: unknown) => string);
  /** `is not an option of <noun> (known: …)`, at the key; without it, an unknown key fails the node itself. */
  unknownKeyOf?: string;
}

// Kept beside the schemas rather than in them, so the schemas stay plain JSON Schema for editors and ajv.
const wordings = new WeakMap<object, Wording>();

/** `schema`, with what a config error says when a value fails it. */
export function worded<T extends JsonSchema>(schema: T, problem: Wording["problem"], unknownKeyOf?: string): T {
  wordings.set(schema, { problem, unknownKeyOf });
  return schema;
}

interface Failure {
  path: ConfigPath;
  /** Unset until the failing node, or the nearest enclosing one, has a wording. */
  problem?: string;
  atKey?: boolean;
}

/**
 * Checks `value` against `schema` (the subset of JSON Schema the project's keys use) and throws the
 * first failure as a config error at its line, in the words of the nearest worded node around it.
 * An `anyOf` tries the first branch whose `type` admits the value (its branches differ by type).
 */
export function checkWithSchema(schema: JsonSchema, value: unknown, path: ConfigPath, doc: ConfigDocument): void {
  const failure = failureOf(schema, value, path);
  if (failure) throw doc.error(failure.path, failure.problem ?? "does not match its schema", { atKey: failure.atKey });
}

function failureOf(schema: JsonSchema, value: unknown, path: ConfigPath): Failure | undefined {
  const failure = ownFailure(schema, value, path);
  const wording = wordings.get(schema);
  if (!failure || failure.problem !== undefined || wording?.problem === undefined) return failure;
  return { path, problem: typeof wording.problem === "string" ? wording.problem : wording.problem(value) };
}

function ownFailure(schema: JsonSchema, value: unknown, path: ConfigPath): Failure | undefined {
  const fails = !admits(schema.type, value)
    || (Array.isArray(schema.enum) && !schema.enum.includes(value))
    || ("const" in schema && schema.const !== value)
    || (typeof value === "string" && typeof schema.minLength === "number" && value.length < schema.minLength)
    || (typeof value === "string" && typeof schema.pattern === "string" && !new RegExp(schema.pattern, "u").test(value))
    || (typeof value === "number" && typeof schema.minimum === "number" && value < schema.minimum)
    || (isRecord(value) && typeof schema.minProperties === "number" && Object.keys(value).length < schema.minProperties)
    || (isRecord(value) && typeof schema.maxProperties === "number" && Object.keys(value).length > schema.maxProperties);
  if (fails) return { path };
  if (isRecord(value)) {
    const failure = objectFailure(schema, value, path);
    if (failure) return failure;
  }
  if (Array.isArray(value) && isRecord(schema.items)) {
    for (const [index, item] of value.entries()) {
      const failure = failureOf(schema.items, item, [...path, index]);
      if (failure) return failure;
    }
  }
  if (Array.isArray(schema.anyOf)) {
    const branch = schema.anyOf.find((candidate) => isRecord(candidate) && admits(candidate.type, value));
    if (!isRecord(branch)) return { path };
    const failure = failureOf(branch, value, path);
    if (failure) return failure;
  }
  for (const [key, dependent] of Object.entries(isRecord(schema.dependentSchemas) ? schema.dependentSchemas : {})) {
    const failure = isRecord(value) && key in value && isRecord(dependent) ? failureOf(dependent, value, path) : undefined;
    if (failure) return failure;
  }
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const failure = isRecord(part) ? failureOf(part, value, path) : undefined;
    if (failure) return failure;
  }
  // No `then`: the project's schemas say what holds otherwise (`else`), which is all this reads.
  if (isRecord(schema.if) && isRecord(schema.else) && failureOf(schema.if, value, path)) return failureOf(schema.else, value, path);
  return undefined;
}

/** An object's keys in the order its schema names them: unknown keys first, then each property. */
function objectFailure(schema: JsonSchema, value: Record<string, unknown>, path: ConfigPath): Failure | undefined {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of Object.keys(value)) {
    if (key in properties) continue;
    if (schema.additionalProperties === false) {
      const noun = wordings.get(schema)?.unknownKeyOf;
      const known = Object.keys(properties).join(", ");
      return noun ? { path: [...path, key], problem: `is not an option of ${noun} (known: ${known})`, atKey: true } : { path };
    }
    if (isRecord(schema.additionalProperties)) {
      const failure = failureOf(schema.additionalProperties, value[key], [...path, key]);
      if (failure) return failure;
    }
  }
  for (const [key, property] of Object.entries(properties)) {
    if (!(key in value) && !required.includes(key)) continue;
    const failure = isRecord(property) ? failureOf(property, value[key], [...path, key]) : undefined;
    if (failure) return failure;
  }
  return required.some((key) => typeof key === "string" && !(key in value) && !(key in properties)) ? { path } : undefined;
}

function admits(type: unknown, value: unknown): boolean {
  switch (type) {
    case undefined: return true;
    case "string": return typeof value === "string";
    case "integer": return Number.isInteger(value);
    case "number": return typeof value === "number";
    case "boolean": return typeof value === "boolean";
    case "null": return value === null;
    case "array": return Array.isArray(value);
    case "object": return isRecord(value);
    default: return false;
  }
}
