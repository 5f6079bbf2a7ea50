import type { Static, TSchema } from "typebox";
import { WeftError } from "./errors.js";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "./standard-schema.js";
import { isRecord } from "./is-record.js";

/**
 * What `defineTool` (and anything else that takes a schema) accepts: a typebox schema, a plain JSON
 * Schema object, or a Standard Schema value that can export JSON Schema (zod 4, arktype, valibot
 * through `toStandardJsonSchema`).
 */
export type SchemaInput = TSchema | StandardJSONSchemaV1;

/** The value a schema's validation hands on: the library's output type, or typebox's static type. */
export type SchemaOutput<S> = S extends StandardSchemaV1<any, infer Output> ? Output : S extends TSchema ? Static<S> : never;

/** A validator's verdict: the value to run with (defaults, coercions and transforms applied) or what is wrong. */
export type ValidationOutcome<T = Record<string, unknown>> = { value: T } | { problems: string[] };

export interface ResolvedSchema {
  /** The JSON Schema published to the model. */
  jsonSchema: Record<string, unknown>;
  /** The library's own validator; absent for typebox and plain JSON Schema, which the kernel validates. */
  validate?: (value: unknown) => Promise<ValidationOutcome>;
}

/** The JSON Schema dialect asked of a Standard JSON Schema library; every provider accepts it. */
const TARGET = "draft-2020-12";

/**
 * Turns what a tool author wrote into the JSON Schema the model sees and, for a Standard Schema, the
 * validator the kernel runs instead of its own. `owner` names the tool in errors ("tool weather").
 * A value that is no schema is refused here, never published as garbage.
 */
export function resolveObjectSchema(owner: string, input: unknown): ResolvedSchema {
  if (!isRecord(input) && typeof input !== "function") throw schemaError(owner, `expected a schema object, got ${describe(input)}`);
  const standard = "~standard" in input ? input["~standard"] : undefined;
  if (standard !== undefined) return fromStandard(owner, standard);
  // A typebox schema is plain JSON Schema; the JSON round trip drops typebox's symbol keys.
  return { jsonSchema: objectSchema(owner, JSON.parse(JSON.stringify(input))) };
}

function fromStandard(owner: string, standard: unknown): ResolvedSchema {
  if (!isRecord(standard) || typeof standard.validate !== "function") {
    throw schemaError(owner, "its ~standard property is not a Standard Schema v1 (no validate function)");
  }
  const vendor = typeof standard.vendor === "string" ? standard.vendor : "unknown";
  const jsonSchemaExport = isRecord(standard.jsonSchema) ? standard.jsonSchema.input : undefined;
  if (typeof jsonSchemaExport !== "function") {
    throw schemaError(owner, `the ${vendor} schema cannot export JSON Schema (no ~standard.jsonSchema)${exportHint(vendor)}`);
  }
  let exported: unknown;
  try {
    exported = jsonSchemaExport({ target: TARGET });
  } catch (error) {
    throw schemaError(owner, `${vendor} cannot express it as JSON Schema: ${error instanceof Error ? error.message : String(error)}`);
  }
  const validate = standard.validate as StandardSchemaV1.Props["validate"];
  return {
    jsonSchema: objectSchema(owner, exported),
    validate: async (value) => {
      const result = await validate(value);
      if (result.issues) return { problems: result.issues.map(issueLine) };
      return isRecord(result.value) ? { value: result.value } : { problems: ["(arguments): the schema's output is not an object"] };
    },
  };
}

/** The model is shown only object schemas; `$schema` is dropped because some providers refuse it. */
function objectSchema(owner: string, schema: unknown): Record<string, unknown> {
  if (!isRecord(schema) || schema.type !== "object") {
    throw schemaError(owner, `a tool's input must be an object schema (JSON Schema with type "object"), got ${describe(schema)}`);
  }
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** One line per issue, in the shape the kernel's own validator reports: `/path/to: message`. */
function issueLine(issue: StandardSchemaV1.Issue): string {
  return `${issuePointer(issue) || "(arguments)"}: ${issue.message}`;
}

/** A Standard Schema issue's path as a JSON pointer (`/a/0/b`; empty at the root). */
export function issuePointer(issue: StandardSchemaV1.Issue): string {
  // Array.from, not .map: arktype's path is an Array subclass whose constructor `map` would call.
  return Array.from(issue.path ?? [], (segment) => `/${String(typeof segment === "object" ? segment.key : segment)}`).join("");
}

function exportHint(vendor: string): string {
  if (vendor === "valibot") return "; wrap it with toStandardJsonSchema from @valibot/to-json-schema";
  if (vendor === "zod") return "; use zod 4.2 or later";
  return "";
}

function describe(value: unknown): string {
  if (isRecord(value)) return "type" in value ? `type ${JSON.stringify(value.type)}` : `an object with keys ${Object.keys(value).slice(0, 5).join(", ") || "(none)"}`;
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}

function schemaError(owner: string, problem: string): WeftError {
  return new WeftError("SCHEMA_INVALID", `${owner}: ${problem}`);
}
