/** The value, or a failed test naming what was missing: for indexed reads under noUncheckedIndexedAccess. */
export function defined<T>(value: T | undefined, what = "a value"): T {
  if (value === undefined) throw new Error(`expected ${what}, got undefined`);
  return value;
}
