import { describe, expect, it } from "vitest";
import type { ToolSpec } from "@weft/sdk";
import { estimateToolSpecTokens } from "./token-estimate.js";

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
