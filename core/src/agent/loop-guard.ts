import type { ToolCall } from "@weft/sdk";
import { callArgumentsKey } from "./tool-arguments.js";

/** What the guard keeps between calls; JSON, so a pending turn resumes with it. */
export interface LoopGuardState {
  lastKey?: string;
  count: number;
  breaches: number;
}

export type LoopVerdict = { repeated: false } | { repeated: true; count: number; breach: number };

/** The verdict on nearly every call, one object for all of them. */
const NOT_REPEATED: LoopVerdict = Object.freeze({ repeated: false });

/**
 * Watches the calls of one turn in call order: the same tool with identical arguments `limit` times in
 * a row is a breach. The agent answers a breach with an error result, and ends the turn at the second.
 *
 * A call is compared with the last one as values; the key a saved state holds (`lastKey`, canonical
 * JSON) is written only when the state is saved, and read by the first check of a resumed turn.
 * Building that key for every call cost more than the rest of the guard.
 */
export class LoopGuard {
  readonly #limit: number;
  #last: ToolCall | undefined;
  /** The last call's key from a saved state, until the resumed turn's first check. */
  #savedKey: string | undefined;
  #count: number;
  #breaches: number;

  constructor(limit: number, state: LoopGuardState = { count: 0, breaches: 0 }) {
    this.#limit = limit;
    this.#savedKey = state.lastKey;
    this.#count = state.count;
    this.#breaches = state.breaches;
  }

  check(call: ToolCall): LoopVerdict {
    if (this.#limit <= 0) return NOT_REPEATED;
    // A turn's first call has nothing to compare with unless it resumes a saved state: no key is built for it.
    const same = this.#last ? sameCall(this.#last, call) : this.#savedKey !== undefined && this.#savedKey === callKey(call);
    this.#count = same ? this.#count + 1 : 1;
    this.#last = call;
    this.#savedKey = undefined;
    if (this.#count < this.#limit) return NOT_REPEATED;
    this.#breaches++;
    return { repeated: true, count: this.#count, breach: this.#breaches };
  }

  get breaches(): number {
    return this.#breaches;
  }

  state(): LoopGuardState {
    const lastKey = this.#last ? callKey(this.#last) : this.#savedKey;
    return { count: this.#count, breaches: this.#breaches, ...(lastKey !== undefined ? { lastKey } : {}) };
  }
}

export function repeatedCallMessage(name: string, count: number): string {
  return `repeated call: you have called ${name} with these exact arguments ${count} times in a row, and the result will not change. Do not call it again with the same arguments: use the result you already have, change the arguments, or give your answer.`;
}

function sameCall(a: ToolCall, b: ToolCall): boolean {
  return a.name === b.name && sameJson(callArgumentsKey(a), callArgumentsKey(b));
}

function callKey(call: ToolCall): string {
  return `${call.name}\u0000${canonicalJson(callArgumentsKey(call))}`;
}

/**
 * Whether two JSON values are the same as `canonicalJson` sees them: object keys in any order, a field
 * set to undefined absent, an undefined array item null (arguments are parsed JSON, so only JSON values occur).
 */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index] ?? null, b[index] ?? null)) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let fields = 0;
  for (const key in left) {
    if (left[key] === undefined) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
    fields++;
  }
  for (const key in right) if (right[key] !== undefined) fields--;
  return fields === 0;
}

/**
 * JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same call. Written out directly: a
 * JSON.stringify replacer that rebuilds each object costs several times more.
 * Arguments are parsed JSON, so only JSON values occur (an `undefined` field is left out, as JSON.stringify does).
 */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const record = value as Record<string, unknown>;
  const fields: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] !== undefined) fields.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${fields.join(",")}}`;
}
