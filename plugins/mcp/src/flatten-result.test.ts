import { describe, expect, it } from "vitest";
import { toToolResult } from "./index.js";

const origin = { server: "s", tool: "t" };
const base64 = (bytes: number) => Buffer.alloc(bytes, 7).toString("base64");

/** The text the model reads for each kind of block: pinned, because it is API. */
describe("toToolResult", () => {
  it("flattens every block kind", () => {
    const content = [
      { type: "text", text: "first" },
      { type: "image", data: base64(10), mimeType: "image/png" },
      { type: "audio", data: base64(3), mimeType: "audio/wav" },
      { type: "resource_link", uri: "file:///a.txt", name: "a" },
      { type: "resource", resource: { uri: "file:///b.txt", mimeType: "text/plain", text: "inline text" } },
      { type: "resource", resource: { uri: "file:///c.bin", mimeType: "application/zip", blob: base64(5) } },
      { type: "hologram" },
    ];
    expect(toToolResult({ content }, origin)).toEqual({
      output: [
        "first",
        "[image: image/png, 10 bytes]",
        "[audio: audio/wav, 3 bytes]",
        "[resource: file:///a.txt]",
        "inline text",
        "[embedded resource: file:///c.bin (application/zip, 5 bytes)]",
        "[hologram content]",
      ].join("\n"),
      parts: [expect.objectContaining({ type: "text" }), { type: "image", mediaType: "image/png", data: base64(10) }],
      metadata: { server: "s", tool: "t", content },
    });
  });

  it("gives structured content as JSON when there are no blocks", () => {
    expect(toToolResult({ content: [], structuredContent: { a: 1 } }, origin)).toEqual({
      output: '{"a":1}',
      metadata: { server: "s", tool: "t", content: [], structuredContent: { a: 1 } },
    });
  });

  it("adds structured content as JSON after blocks that do not carry it, and not again when they do", () => {
    const weather = { temperature: 21, conditions: "sunny" };
    expect(toToolResult({ content: [{ type: "text", text: "Nice out" }], structuredContent: weather }, origin).output).toBe('Nice out\n{"temperature":21,"conditions":"sunny"}');
    expect(toToolResult({ content: [{ type: "text", text: JSON.stringify(weather, null, 2) }], structuredContent: weather }, origin).output).toBe(JSON.stringify(weather, null, 2));
    expect(toToolResult({ content: [{ type: "text", text: "file body\n" }], structuredContent: { content: "file body\n" } }, origin).output).toBe("file body\n");
    expect(toToolResult({ content: [{ type: "text", text: '[{"name":"a"}]' }], structuredContent: { entities: [{ name: "a" }] } }, origin).output).toBe('[{"name":"a"}]');
  });

  it("makes an MCP error result an error result with the server's text", () => {
    expect(toToolResult({ content: [{ type: "text", text: "no such city" }], isError: true }, origin)).toMatchObject({ output: "no such city", isError: true });
    expect(toToolResult({ content: [], isError: true }, origin)).toMatchObject({ output: "t failed without saying why", isError: true });
  });
});
