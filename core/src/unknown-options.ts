import { isRecord } from "@weft/sdk";
import type { OptionProblem } from "./plugin-options-error.js";

type Schema = Record<string, unknown>;

/**
 * Keys an object schema does not name, through nested object properties: typebox objects allow extra
 * keys unless told otherwise, which would let `files: { rot: ./ws }` pass silently. A schema that
 * declares `additionalProperties` or `patternProperties` (a record) decides for itself.
 */
export function unknownOptions(schema: Schema, value: unknown, path = ""): OptionProblem[] {
  if (!isRecord(value) || !isRecord(schema.properties)) return [];
  if ("additionalProperties" in schema || "patternProperties" in schema) return [];
  const properties = schema.properties;
  return Object.entries(value).flatMap(([key, nested]) => {
    const property = properties[key];
    const where = `${path}/${key}`;
    if (!isRecord(property)) {
      const known = Object.keys(properties);
      return [{ path: where, message: `is not an option (known: ${known.length ? known.join(", ") : "none"})` }];
    }
    return unknownOptions(property, nested, where);
  });
}
