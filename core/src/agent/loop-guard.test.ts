import { describe, expect, it } from "vitest";
import type { ToolCall } from "@weft/sdk";
import { LoopGuard, type LoopGuardState } from "./loop-guard.js";

const call = (args: Record<string, unknown>, name = "lookup"): ToolCall => ({ id: "c", name, arguments: args });

/**
 * Whether the guard finds each of `calls` repeated (limit 2: the second identical call in a row is). A
 * turn resumed from a saved state before each call (which compares with the saved key, not the call)
 * must find the same.
 */
function trips(...calls: ToolCall[]): boolean[] {
  const guard = new LoopGuard(2);
  const inOneTurn = calls.map((each) => guard.check(each).repeated);
  let saved: LoopGuardState | undefined;
  const resumed = calls.map((each) => {
    const resuming = new LoopGuard(2, saved);
    const { repeated } = resuming.check(each);
    saved = resuming.state();
    return repeated;
  });
  expect(resumed).toEqual(inOneTurn);
  return inOneTurn;
}

describe("the loop guard's idea of the same call", () => {
  it("ignores key order at every depth", () => {
    expect(trips(call({ q: { b: [1, { y: 2, x: 1 }], a: "s" } }), call({ q: { a: "s", b: [1, { x: 1, y: 2 }] } }))).toEqual([false, true]);
  });

  it("tells apart values, array order, tools, and a string from the number it spells", () => {
    expect(trips(call({ list: [1, 2] }), call({ list: [2, 1] }))).toEqual([false, false]);
    expect(trips(call({ n: 1 }), call({ n: "1" }))).toEqual([false, false]);
    expect(trips(call({ s: 'a"b' }), call({ s: 'a"b' }, "other"))).toEqual([false, false]);
    expect(trips(call({ s: 'a"b', t: null }), call({ t: null, s: 'a"b' }))).toEqual([false, true]);
  });

  it("treats a field set to undefined as absent, as JSON does", () => {
    expect(trips(call({ a: 1, b: undefined }), call({ a: 1 }))).toEqual([false, true]);
    expect(trips(call({ a: 1 }), call({ a: 1, b: undefined }))).toEqual([false, true]);
    expect(trips(call({ list: [undefined, 1] }), call({ list: [null, 1] }))).toEqual([false, true]);
    expect(trips(call({ a: undefined }), call({ b: undefined }), call({}))).toEqual([false, true, true]);
  });
});
