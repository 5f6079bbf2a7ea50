import { describe, expect, it } from "vitest";
import type { Message, ToolSpec } from "@weft/sdk";
import { freezeMessage } from "./frozen-messages.js";
import { estimateMessageTokens, estimateMessagesTokens, estimateToolSpecTokens } from "./token-estimate.js";

const wholeJson = (tools: ToolSpec[]) => Math.ceil(JSON.stringify(tools).length / 4);

describe("estimateToolSpecTokens", () => {
  it("counts the tools' JSON as a whole would, again and again, as names and descriptions change over a shared schema", () => {
    const shared = { type: "object", properties: { city: { type: "string", description: "City — name, e.g. Zürich" } }, required: ["city"] };
    const tools: ToolSpec[] = [
      { name: "get_weather", description: "Current weather for a city", inputSchema: shared },
      { name: "local_time", description: "Local time in a city", inputSchema: shared },
      { name: "add", description: "Add two numbers", inputSchema: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } } } },
    ];
    expect(estimateToolSpecTokens([])).toBe(0);
    for (let round = 0; round < 2; round++) {
      expect(estimateToolSpecTokens(tools)).toBe(wholeJson(tools));
      expect(estimateToolSpecTokens(tools.slice(0, 1))).toBe(wholeJson(tools.slice(0, 1)));
    }
    const renamed = tools.map((tool) => ({ ...tool, description: `${tool.description}, in more words than before` }));
    expect(estimateToolSpecTokens(renamed)).toBe(wholeJson(renamed));
    expect(estimateToolSpecTokens(renamed)).toBeGreaterThan(estimateToolSpecTokens(tools) + 10);
  });

  it("sums a frozen list (a session's tools) once; a list that may change is summed every time", () => {
    let reads = 0;
    const spec = (name: string): ToolSpec => ({
      get name() {
        reads++;
        return name;
      },
      description: "A tool",
      inputSchema: { type: "object" },
    });
    const frozen = Object.freeze([spec("a"), spec("b")]);
    const first = estimateToolSpecTokens(frozen);
    expect(first).toBe(wholeJson([...frozen]));
    reads = 0;
    expect(estimateToolSpecTokens(frozen)).toBe(first);
    expect(reads).toBe(0);
    const open = [spec("a"), spec("b")];
    estimateToolSpecTokens(open);
    reads = 0;
    estimateToolSpecTokens(open);
    expect(reads).toBeGreaterThan(0);
  });
});

describe("estimateMessageTokens", () => {
  it("counts 4 characters a token plus 4 a message and 1600 a media part, the same for a frozen message as for its copy", () => {
    const image = { type: "image" as const, data: "aGk=", mediaType: "image/png" };
    const messages: Message[] = [
      { role: "system", content: "x".repeat(10) },
      { role: "user", content: "x".repeat(9), parts: [{ type: "text", text: "x".repeat(9) }, image, image] },
      { role: "tool", toolCallId: "c1", toolName: "shot", content: "x".repeat(8), parts: [image] },
      { role: "assistant", content: "x".repeat(7) },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "add", arguments: { a: 1 } }] },
      { role: "assistant", content: "ok", reasoning: [{ provider: "anthropic", text: "xxxx", signature: "ss" }] },
    ];
    const expected = [4 + 3, 4 + 3 + 3200, 4 + 2 + 1600, 4 + 2, 4 + Math.ceil(("add".length + '{"a":1}'.length) / 4), 4 + 2];
    expect(messages.map((message) => estimateMessageTokens(message))).toEqual(expected);
    const frozen = messages.map((message) => freezeMessage(structuredClone(message)));
    for (let round = 0; round < 2; round++) expect(frozen.map((message) => estimateMessageTokens(message))).toEqual(expected);
    expect(estimateMessagesTokens(frozen)).toBe(expected.reduce((sum, tokens) => sum + tokens, 0));
    expect(estimateMessagesTokens(frozen, 4)).toBe(expected.slice(4).reduce((sum, tokens) => sum + tokens, 0));
  });
});
