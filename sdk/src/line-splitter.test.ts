import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.js";

function split(chunks: (string | Uint8Array)[]): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((source, start, end) => lines.push(source.slice(start, end)));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe("LineSplitter", () => {
  // LF-only stretches (the fast path) next to CR and CRLF endings, a multi-byte character, blank lines.
  const text = "data: a\n\nevent: é\r\ndata: b\r\rdata: ✓ c\n\ndata: d\r\n\r\n: last";
  const expected = ["data: a", "", "event: é", "data: b", "", "data: ✓ c", "", "data: d", "", ": last"];

  it("ends lines at LF, CRLF and lone CR and hands out a last line without an ending at end()", () => {
    expect(split([text])).toEqual(expected);
  });

  it("gives the same lines for every cut into three chunks, as text and as bytes", () => {
    const bytes = new TextEncoder().encode(text);
    for (let first = 0; first <= text.length; first++) {
      for (let second = first; second <= text.length; second++) {
        expect(split([text.slice(0, first), text.slice(first, second), text.slice(second)])).toEqual(expected);
      }
    }
    for (let first = 0; first <= bytes.length; first++) {
      for (let second = first; second <= bytes.length; second += 3) {
        expect(split([bytes.subarray(0, first), bytes.subarray(first, second), bytes.subarray(second)])).toEqual(expected);
      }
    }
  });

  it("joins a line that began in earlier chunks with the chunk that ends it, with or without a CR in that chunk", () => {
    expect(split(["da", "ta: ", "x", "y\nnext\n"])).toEqual(["data: xy", "next"]);
    expect(split(["da", "ta: ", "x", "y\r\nnext\r\n"])).toEqual(["data: xy", "next"]);
    expect(split(["one\r", "", "\ntwo"])).toEqual(["one", "two"]);
  });
});
