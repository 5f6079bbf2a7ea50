import { isRecord } from "@weft/sdk";

type Schema = Record<string, unknown>;

/**
 * Fills JSON Schema `default`s into `value`, through nested object properties. typebox's
 * `Value.Default` only knows schemas typebox built; plugins may publish plain JSON Schema.
 */
export function withDefaults(schema: Schema, value: unknown): unknown {
  if (value === undefined && "default" in schema) return structuredClone(schema.default);
  if (!isRecord(value) || !isRecord(schema.properties)) return value;
  const filled: Record<string, unknown> = { ...value };
  for (const [key, property] of Object.entries(schema.properties)) {
    if (!isRecord(property)) continue;
    const next = withDefaults(property, filled[key]);
    if (next !== undefined) filled[key] = next;
  }
  return filled;
}
