import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { SseParser, sseEvents, type SseEvent } from "./sse-parser.js";

const fixtures = new URL("../../fixtures/providers/", import.meta.url);

function parseAll(chunks: (string | Uint8Array)[]): SseEvent[] {
  const parser = new SseParser();
  const events: SseEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  events.push(...parser.end());
  return events;
}

describe("SseParser", () => {
  it("reads data, event and id fields and skips comment lines", () => {
    const events = parseAll([": OPENROUTER PROCESSING\n\nevent: ping\ndata: {\"type\":\"ping\"}\n\nid: 7\ndata: one\n\ndata: two\n\n"]);
    expect(events).toEqual([
      { event: "ping", data: '{"type":"ping"}' },
      { data: "one", id: "7" },
      { data: "two", id: "7" },
    ]);
  });

  it("joins multi-line data with LF and keeps all but one leading space", () => {
    expect(parseAll(["data: first\ndata:second\ndata:  third\n\n"])).toEqual([{ data: "first\nsecond\n third" }]);
  });

  it("accepts LF, CRLF and lone CR line endings, even mixed", () => {
    expect(parseAll(["data: a\r\n\r\ndata: b\r\rdata: c\n\ndata: d\r\n\n"])).toEqual([{ data: "a" }, { data: "b" }, { data: "c" }, { data: "d" }]);
  });

  it("handles a CRLF split between two chunks without seeing an extra blank line", () => {
    expect(parseAll(["data: a\r", "\ndata: b\r", "\n\r", "\n"])).toEqual([{ data: "a\nb" }]);
  });

  it("dispatches `data` with no value as an empty string and ignores a blank line with no data", () => {
    expect(parseAll(["\n\nevent: x\n\ndata\n\ndata:\n\n"])).toEqual([{ data: "" }, { data: "" }]);
  });

  it("ignores retry and unknown fields", () => {
    expect(parseAll(["retry: 1000\nfoo: bar\ndata: kept\n\n"])).toEqual([{ data: "kept" }]);
  });

  it("delivers a last event that lacks its closing blank line at end()", () => {
    expect(parseAll(["data: {\"a\":1}\n\ndata: [DONE]\n"])).toEqual([{ data: '{"a":1}' }, { data: "[DONE]" }]);
    expect(parseAll(["data: [DONE]"])).toEqual([{ data: "[DONE]" }]);
  });

  it("gives the same events whatever the chunking, down to single bytes through multi-byte characters", () => {
    const text = "event: delta\ndata: {\"text\":\"925 ÷ 5 = 185 — ✓ 🎉\"}\r\n\r\n: keep-alive\ndata: done\n\n";
    const bytes = new TextEncoder().encode(text);
    const whole = parseAll([bytes]);
    expect(whole).toEqual([{ event: "delta", data: '{"text":"925 ÷ 5 = 185 — ✓ 🎉"}' }, { data: "done" }]);
    expect(parseAll([...bytes].map((byte) => Uint8Array.of(byte)))).toEqual(whole);
    for (let cut = 1; cut < bytes.length; cut++) {
      expect(parseAll([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(whole);
    }
  });

  it("joins a line spread over many chunks", () => {
    const value = "x".repeat(100_000);
    const wire = `data: ${value}\n\n`;
    const chunks: string[] = [];
    for (let i = 0; i < wire.length; i += 1000) chunks.push(wire.slice(i, i + 1000));
    expect(parseAll(chunks)).toEqual([{ data: value }]);
  });

  it("reads every recorded .sse fixture into the events of its .chunks.txt", () => {
    for (const name of ["anthropic/anthropic-clear-thinking.1", "anthropic/anthropic-text", "openai-compatible/deepseek--deepseek-tool-call", "openai-compatible/openai--openai-text"]) {
      const sse = readFileSync(new URL(`${name}.sse`, fixtures));
      const chunks = readFileSync(new URL(`${name}.chunks.txt`, fixtures), "utf8").split("\n").filter((line) => line.trim() !== "");
      const data = parseAll([sse]).map((event) => event.data);
      expect(data.filter((payload) => payload !== "[DONE]")).toEqual(chunks);
    }
  });

  it("sseEvents reads an async byte stream", async () => {
    async function* body() {
      yield new TextEncoder().encode("data: a\n");
      yield new TextEncoder().encode("\ndata: b\n\n");
    }
    const events: SseEvent[] = [];
    for await (const event of sseEvents(body())) events.push(event);
    expect(events).toEqual([{ data: "a" }, { data: "b" }]);
  });
});
