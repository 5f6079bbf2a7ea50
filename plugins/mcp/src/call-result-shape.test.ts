import { describe, expect, it } from "vitest";
import { callResultProblem, callResultShape } from "./call-result-shape.js";

describe("the tools/call result check", () => {
  it("passes a readable result through as it came", () => {
    const result = { content: [{ type: "text", text: "hi", extra: 1 }], structuredContent: { n: 1 }, isError: false, _meta: { a: 1 } };
    const parsed = callResultShape["~standard"].validate(result);
    expect(parsed).toEqual({ value: result });
    expect("value" in parsed && parsed.value).toBe(result);
    expect(callResultProblem({})).toBeUndefined();
  });

  it("names what weft cannot read", () => {
    expect(callResultProblem("text")).toBe("the result is not an object");
    expect(callResultProblem({ content: "text" })).toBe("`content` is not a list");
    expect(callResultProblem({ content: [{ type: "text" }, { text: "x" }] })).toBe("content block 1 has no `type`");
    expect(callResultProblem({ content: [], structuredContent: [1] })).toBe("`structuredContent` is not an object");
    expect(callResultProblem({ content: [], isError: "yes" })).toBe("`isError` is not a boolean");
    expect(callResultShape["~standard"].validate({ content: "text" })).toEqual({ issues: [{ message: "its tools/call result cannot be read: `content` is not a list" }] });
  });
});
