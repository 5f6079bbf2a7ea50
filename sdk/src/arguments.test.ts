import { describe, expect, it } from "vitest";
import { Arguments } from "./arguments.js";

const args = new Arguments({ name: "x", count: 3, whole: 4.0, ratio: 0.5, on: true, obj: { a: 1 }, tags: ["a", "b"], ids: [1, 2], empty: null });

describe("Arguments", () => {
  it("returns typed values", () => {
    expect(args.getString("name")).toEqual({ ok: true, value: "x" });
    expect(args.getInt("count")).toEqual({ ok: true, value: 3 });
    expect(args.getInt("whole")).toEqual({ ok: true, value: 4 });
    expect(args.getNumber("ratio")).toEqual({ ok: true, value: 0.5 });
    expect(args.getBool("on")).toEqual({ ok: true, value: true });
    expect(args.getObject("obj")).toEqual({ ok: true, value: { a: 1 } });
    expect(args.getArrayOfStrings("tags")).toEqual({ ok: true, value: ["a", "b"] });
    expect(args.getArrayOfInts("ids")).toEqual({ ok: true, value: [1, 2] });
  });

  it("names a missing field", () => {
    expect(args.getString("path")).toEqual({ ok: false, error: "field not found: path" });
    expect(args.getString("empty")).toEqual({ ok: false, error: "field not found: empty" });
  });

  it("names a field of the wrong type", () => {
    expect(args.getString("count")).toEqual({ ok: false, error: "invalid field type: count is not a string" });
    expect(args.getInt("ratio")).toEqual({ ok: false, error: "invalid field type: ratio is not an integer" });
    expect(args.getNumber("name")).toEqual({ ok: false, error: "invalid field type: name is not a number" });
    expect(args.getBool("name")).toEqual({ ok: false, error: "invalid field type: name is not a boolean" });
    expect(args.getObject("tags")).toEqual({ ok: false, error: "invalid field type: tags is not an object" });
    expect(args.getArrayOfStrings("ids")).toEqual({ ok: false, error: "invalid field type: ids is not an array of strings" });
    expect(args.getArrayOfObjects("tags")).toEqual({ ok: false, error: "invalid field type: tags is not an array of objects" });
  });

  it("falls back only for a missing field", () => {
    expect(args.getStringOr("path", "/")).toEqual({ ok: true, value: "/" });
    expect(args.getIntOr("empty", 7)).toEqual({ ok: true, value: 7 });
    expect(args.getIntOr("count", 7)).toEqual({ ok: true, value: 3 });
    expect(args.getBoolOr("name", false)).toEqual({ ok: false, error: "invalid field type: name is not a boolean" });
  });
});
