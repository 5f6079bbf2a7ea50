import { describe, expect, it } from "vitest";
import { NdjsonParser, ndjsonValues } from "./ndjson-parser.js";

function parseAll(chunks: (string | Uint8Array)[], parser = new NdjsonParser()): unknown[] {
  const values: unknown[] = [];
  for (const chunk of chunks) values.push(...parser.push(chunk));
  values.push(...parser.end());
  return values;
}

describe("NdjsonParser", () => {
  it("parses one value a line, skipping blank lines, with LF or CRLF", () => {
    expect(parseAll(['{"a":1}\n\n  \r\n{"b":"x"}\r\n[1,2]\n'])).toEqual([{ a: 1 }, { b: "x" }, [1, 2]]);
  });

  it("parses a last line that has no newline at end()", () => {
    const parser = new NdjsonParser();
    expect(parser.push('{"done":false}\n{"done":')).toEqual([{ done: false }]);
    expect(parser.push("true}")).toEqual([]);
    expect(parser.end()).toEqual([{ done: true }]);
  });

  it("gives the same values whatever the chunking, through multi-byte characters", () => {
    const bytes = new TextEncoder().encode('{"message":{"content":"11°C ✓"}}\n{"done":true}\n');
    const whole = parseAll([bytes]);
    expect(whole).toEqual([{ message: { content: "11°C ✓" } }, { done: true }]);
    for (let cut = 1; cut < bytes.length; cut++) expect(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
  });

  it("hands each line to a custom parser, whose error stops the parse", () => {
    const parser = new NdjsonParser((line) => {
      if (!line.startsWith("{")) throw new Error(`not an object: ${line}`);
      return JSON.parse(line) as object;
    });
    expect(parser.push('{"ok":1}\n')).toEqual([{ ok: 1 }]);
    expect(() => parser.push("oops\n")).toThrow("not an object: oops");
  });

  it("ndjsonValues reads an async byte stream", async () => {
    async function* body() {
      yield '{"n":1}\n{"n"';
      yield ":2}";
    }
    const values: unknown[] = [];
    for await (const value of ndjsonValues(body())) values.push(value);
    expect(values).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
