import type { ToolCall } from "@weft/sdk";
import { callArgumentsKey } from "./tool-arguments.js";

/** What the guard keeps between calls; JSON, so a pending turn resumes with it. */
export interface LoopGuardState {
  lastKey?: string;
  count: number;
  breaches: number;
}

export type LoopVerdict = { repeated: false } | { repeated: true; count: number; breach: number };

/**
 * Watches the calls of one turn in call order: the same tool with identical arguments `limit` times in
 * a row is a breach. The agent answers a breach with an error result, and ends the turn at the second.
 */
export class LoopGuard {
  readonly #limit: number;
  readonly #state: LoopGuardState;

  constructor(limit: number, state: LoopGuardState = { count: 0, breaches: 0 }) {
    this.#limit = limit;
    this.#state = { ...state };
  }

  check(call: ToolCall): LoopVerdict {
    if (this.#limit <= 0) return { repeated: false };
    const key = `${call.name}\u0000${canonicalJson(callArgumentsKey(call))}`;
    this.#state.count = key === this.#state.lastKey ? this.#state.count + 1 : 1;
    this.#state.lastKey = key;
    if (this.#state.count < this.#limit) return { repeated: false };
    this.#state.breaches++;
    return { repeated: true, count: this.#state.count, breach: this.#state.breaches };
  }

  get breaches(): number {
    return this.#state.breaches;
  }

  state(): LoopGuardState {
    return { ...this.#state };
  }
}

export function repeatedCallMessage(name: string, count: number): string {
  return `repeated call: you have called ${name} with these exact arguments ${count} times in a row, and the result will not change. Do not call it again with the same arguments: use the result you already have, change the arguments, or give your answer.`;
}

/**
 * JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same call. Written out directly: it
 * runs for every tool call, and a JSON.stringify replacer that rebuilds each object costs several times more.
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
