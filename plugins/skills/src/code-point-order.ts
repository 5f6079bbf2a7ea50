/**
 * Compares strings by Unicode code point. `<` on JS strings compares UTF-16 code units, which puts
 * characters beyond U+FFFF before U+E000-U+FFFF; the catalog promises code-point order.
 */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const l = left.next();
    const r = right.next();
    if (l.done || r.done) return l.done && r.done ? 0 : l.done ? -1 : 1;
    // Each step of a string's iterator is one whole code point, never empty.
    const difference = (l.value.codePointAt(0) ?? 0) - (r.value.codePointAt(0) ?? 0);
    if (difference !== 0) return difference;
  }
}
