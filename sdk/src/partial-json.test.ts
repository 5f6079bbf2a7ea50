import { describe, expect, it } from "vitest";
import { parsePartialJson } from "./partial-json.js";

describe("parsePartialJson", () => {
  it("reads every prefix of an object as far as it goes", () => {
    const text = '{"city": "Paris", "temps": [12, 14.5], "sunny": true, "note": null}';
    const seen = new Set<string>();
    for (let end = 0; end <= text.length; end++) seen.add(JSON.stringify(parsePartialJson(text.slice(0, end))));
    expect([...seen]).toEqual([
      undefined,
      "{}",
      '{"city":""}',
      '{"city":"P"}',
      '{"city":"Pa"}',
      '{"city":"Par"}',
      '{"city":"Pari"}',
      '{"city":"Paris"}',
      '{"city":"Paris","temps":[]}',
      '{"city":"Paris","temps":[1]}',
      '{"city":"Paris","temps":[12]}',
      '{"city":"Paris","temps":[12,1]}',
      '{"city":"Paris","temps":[12,14]}',
      '{"city":"Paris","temps":[12,14.5]}',
      '{"city":"Paris","temps":[12,14.5],"sunny":true}',
      '{"city":"Paris","temps":[12,14.5],"sunny":true,"note":null}',
    ]);
  });

  it("leaves out a key without its value, a half literal and half an escape", () => {
    expect(parsePartialJson('{"a": 1, "b')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 1, "b": ')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": 1, "b": tr')).toEqual({ a: 1 });
    expect(parsePartialJson('{"a": "x\\')).toEqual({ a: "x" });
    expect(parsePartialJson('{"a": "x\\u00')).toEqual({ a: "x" });
    expect(parsePartialJson('{"a": {"b": [{"c": "d')).toEqual({ a: { b: [{ c: "d" }] } });
  });

  it("is undefined before anything can be read", () => {
    expect(parsePartialJson("")).toBeUndefined();
    expect(parsePartialJson("Sure, here")).toBeUndefined();
  });
});
