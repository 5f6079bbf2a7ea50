import { isRecord } from "./is-record.js";

/**
 * A provider's subset of JSON Schema for structured output, and the adaptation of any schema to it:
 * what the subset lacks is moved into the description (the model still reads it; the reply is
 * validated against the original schema), every object gets `additionalProperties: false`, and,
 * where the provider wants every property required, optional properties become required and nullable
 * (`dropNullOptionals` takes those nulls out again before validation).
 */
export interface SchemaDialect {
  /** Named in notices: "OpenAI strict mode". */
  name: string;
  /** Keywords kept as they are; any other is moved into the description (annotations are dropped). */
  keywords: ReadonlySet<string>;
  /** `format` values kept; another format is moved into the description. */
  formats: ReadonlySet<string>;
  /** Every property must be listed in `required` (optional ones are made nullable). */
  allRequired: boolean;
  /** The largest `minItems` kept (Anthropic takes only 0 and 1). */
  maxMinItems?: number;
}

/** OpenAI's strict structured outputs, as its guide lists the supported subset (also what OpenRouter forwards). */
export const OPENAI_STRICT_DIALECT: SchemaDialect = {
  name: "OpenAI strict mode",
  keywords: new Set([
    ...["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "$ref", "$defs", "definitions", "description"],
    ...["pattern", "format", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems"],
  ]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]),
  allRequired: true,
};

/** Anthropic's structured outputs (`output_config.format`), as its JSON Schema limitations list them. */
export const ANTHROPIC_OUTPUT_DIALECT: SchemaDialect = {
  name: "Anthropic structured outputs",
  keywords: new Set([
    ...["type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "allOf", "$ref", "$defs", "definitions"],
    ...["description", "default", "pattern", "format", "minItems"],
  ]),
  formats: new Set(["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid"]),
  allRequired: false,
  maxMinItems: 1,
};

/** Annotations no provider needs; dropped rather than moved (they constrain nothing). */
const ANNOTATIONS = new Set(["title", "$schema", "$id", "$comment", "examples", "deprecated", "readOnly", "writeOnly"]);

export interface AdaptedSchema {
  schema: Record<string, unknown>;
  /** What was moved into descriptions, as `path keyword` (`/properties/name minLength`), for a notice. */
  moved: string[];
}

type JsonObject = Record<string, unknown>;

export function adaptOutputSchema(schema: Record<string, unknown>, dialect: SchemaDialect): AdaptedSchema {
  const moved: string[] = [];
  return { schema: adaptNode(schema, dialect, "", moved), moved };
}

function adaptNode(node: JsonObject, dialect: SchemaDialect, path: string, moved: string[]): JsonObject {
  const out: JsonObject = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (ANNOTATIONS.has(key)) continue;
    const kept =
      dialect.keywords.has(key) &&
      !(key === "format" && !dialect.formats.has(String(value))) &&
      !(key === "minItems" && dialect.maxMinItems !== undefined && typeof value === "number" && value > dialect.maxMinItems) &&
      !(key === "items" && !isRecord(value)) &&
      !(key === "additionalProperties" && value !== false);
    if (kept) out[key] = value;
    else if (key !== "additionalProperties" || value !== true) {
      notes.push(`${key}: ${JSON.stringify(value)}`);
      moved.push(`${path || "/"} ${key}`);
    }
  }
  if (isRecord(out.properties)) {
    const properties = out.properties;
    const required = new Set(Array.isArray(out.required) ? out.required.map(String) : []);
    const adapted: JsonObject = {};
    for (const [name, property] of Object.entries(properties)) {
      if (!isRecord(property)) continue;
      const child = adaptNode(property, dialect, `${path}/properties/${name}`, moved);
      adapted[name] = dialect.allRequired && !required.has(name) ? nullable(child) : child;
    }
    out.properties = adapted;
    if (dialect.allRequired) out.required = Object.keys(adapted);
  }
  if (out.type === "object" || isRecord(out.properties)) out.additionalProperties = false;
  if (isRecord(out.items)) out.items = adaptNode(out.items, dialect, `${path}/items`, moved);
  for (const key of ["anyOf", "allOf"] as const) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((entry, index) => (isRecord(entry) ? adaptNode(entry, dialect, `${path}/${key}/${index}`, moved) : entry));
  }
  for (const key of ["$defs", "definitions"] as const) {
    const defs = out[key];
    if (isRecord(defs)) {
      out[key] = Object.fromEntries(Object.entries(defs).map(([name, def]) => [name, isRecord(def) ? adaptNode(def, dialect, `${path}/${key}/${name}`, moved) : def]));
    }
  }
  if (notes.length > 0) {
    const said = typeof out.description === "string" && out.description ? `${out.description} ` : "";
    out.description = `${said}(${notes.join(", ")})`;
  }
  return out;
}

/** A schema that also takes `null`: in `type` where it is a type name, else as an `anyOf` branch. */
function nullable(schema: JsonObject): JsonObject {
  if (typeof schema.type === "string" && !Array.isArray(schema.enum)) return { ...schema, type: [schema.type, "null"] };
  if (Array.isArray(schema.type) && !Array.isArray(schema.enum)) return schema.type.includes("null") ? schema : { ...schema, type: [...schema.type, "null"] };
  const { description, ...rest } = schema;
  return { anyOf: [rest, { type: "null" }], ...(description !== undefined ? { description } : {}) };
}

/**
 * `value` without the nulls a strict-mode model put where the original schema has an optional,
 * non-nullable property (strict mode made it required and nullable); other values are untouched.
 */
export function dropNullOptionals(value: JsonObject, schema: unknown): JsonObject;
export function dropNullOptionals(value: unknown, schema: unknown): unknown;
export function dropNullOptionals(value: unknown, schema: unknown): unknown {
  if (!isRecord(schema)) return value;
  if (Array.isArray(value)) return isRecord(schema.items) ? value.map((item) => dropNullOptionals(item, schema.items)) : value;
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const out: JsonObject = {};
  for (const [key, entry] of Object.entries(value)) {
    const property = schema.properties[key];
    if (entry === null && !required.has(key) && isRecord(property) && !allowsNull(property)) continue;
    out[key] = dropNullOptionals(entry, property);
  }
  return out;
}

function allowsNull(schema: JsonObject): boolean {
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some((branch) => isRecord(branch) && allowsNull(branch));
}
