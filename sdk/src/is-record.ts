/**
 * Whether `value` is a plain JSON-like object (not null, not an array): the first check on anything
 * parsed from the wire or a file, after which its fields can be read as `unknown` and narrowed.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
