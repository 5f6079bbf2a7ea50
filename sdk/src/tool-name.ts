import { createRequire } from "node:module";

// node:crypto is required by the first name that needs a hash, not with the sdk: loading it costs
// every process ~5 ms, and most never sanitize a name. So is the require function made then: the
// first `createRequire` of an ES module process sets up Node's CommonJS loader (~0.5 ms).
let require: NodeJS.Require | undefined;

const VALID_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;
const HASH_PREFIX_LENGTH = MAX_LENGTH - 7;

/** Whether `name` follows the providers' rule: 1-64 characters of letters, digits, `_` and `-`. */
export function validToolName(name: string): boolean {
  return VALID_NAME.test(name);
}

/**
 * Turns any name into a valid tool name. Every other character becomes `_`; a result longer than 64
 * characters, or one already in `taken` (the names of the same batch), becomes its first 57
 * characters + `_` + the first 6 hex digits of SHA-256 of the original name, so it is stable across
 * runs. The returned name is added to `taken` when a set is given.
 */
export function sanitizeToolName(name: string, taken?: Set<string>): string {
  let result = name.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
  if (result.length > MAX_LENGTH || taken?.has(result)) {
    require ??= createRequire(import.meta.url);
    const { createHash } = require("node:crypto") as typeof import("node:crypto");
    const hash = createHash("sha256").update(name).digest("hex").slice(0, 6);
    result = `${result.slice(0, HASH_PREFIX_LENGTH)}_${hash}`;
  }
  taken?.add(result);
  return result;
}
