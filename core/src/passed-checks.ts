/**
 * Option checks that passed, by exactly what was checked. typebox's `Value.Check` answers from the
 * schema and the value alone, so a pass holds for every later check of the same two: the process keeps
 * them, and a project's loader keeps them between starts (config/check-cache.ts). Its first calls cost
 * a start ~3 ms of compiling typebox's checker; a start whose options and plugins are unchanged runs
 * none. A failing check is never kept: an error is always found, and located, afresh.
 */
const passes = new Map<string, { used: boolean }>();

/**
 * What a check of `value` against `schema` is about, as JSON text: the checker reads JSON Schema's
 * keywords and, of typebox's hidden keys, only `~refine` (functions). Undefined when the check depends
 * on more than JSON says: a refinement or any other function, undefined, a symbol, a class instance (a
 * Date, a Map) or a toJSON, a number JSON rewrites (NaN, Infinity and -0), a cycle. Such a check always runs.
 */
export function checkKey(schema: unknown, value: unknown): string | undefined {
  let plain = true;
  try {
    const text = JSON.stringify([schema, value], function (this: unknown, key: string, node: unknown) {
      // The node as it is, before a toJSON (a Date's) rewrote it.
      const raw = (this as Record<string, unknown>)[key];
      if (!isPlainData(raw)) plain = false;
      return plain ? node : undefined;
    });
    return plain ? text : undefined;
  } catch {
    // A cycle or a bigint: JSON has no text for it.
    return undefined;
  }
}

function isPlainData(node: unknown): boolean {
  if (node === null || typeof node === "string" || typeof node === "boolean") return true;
  if (typeof node === "number") return Number.isFinite(node) && !Object.is(node, -0);
  if (typeof node !== "object") return false;
  const prototype = Object.getPrototypeOf(node);
  return (Array.isArray(node) || prototype === Object.prototype || prototype === null) && !("~refine" in node) && !("toJSON" in node);
}

/** Whether a check of this key passed before (in this process, or in a start the cache remembers). */
export function passedBefore(key: string): boolean {
  const pass = passes.get(key);
  if (pass) pass.used = true;
  return pass !== undefined;
}

export function notePass(key: string): void {
  passes.set(key, { used: true });
}

/** Passes an earlier start kept; they count as used once a check asks for them. */
export function rememberPasses(keys: Iterable<string>): void {
  for (const key of keys) if (!passes.has(key)) passes.set(key, { used: false });
}

/** The passes checks of this process asked for or made: what a cache entry keeps for the next start. */
export function usedPasses(): string[] {
  return [...passes].filter(([, pass]) => pass.used).map(([key]) => key);
}
