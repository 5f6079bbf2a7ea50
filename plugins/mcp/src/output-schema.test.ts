import { describe, expect, it, vi } from "vitest";
import { loadSchemaChecker, loadSchemaCompiler } from "@weft/sdk";
import { Compile } from "@weft/sdk/typebox";
import { outputChecker } from "./output-schema.js";

vi.mock("@weft/sdk/typebox", async (importOriginal) => {
  const typebox = await importOriginal<typeof import("@weft/sdk/typebox")>();
  return { ...typebox, Compile: vi.fn(typebox.Compile) };
});

describe("the outputSchema check", () => {
  const schema = { type: "object", properties: { n: { type: "number" }, tags: { type: "array", items: { type: "string" } } }, required: ["n"] };
  const invalid = { type: "object", properties: { id: { type: "string", pattern: "(" } } };

  it("reports the same problems before typebox's compiler has loaded (interpreted) as after (compiled)", async () => {
    const check = outputChecker(schema);
    // The execute path loads typebox's checker before a call runs (before a result comes back).
    await loadSchemaChecker();
    const broken = outputChecker(invalid);
    const answers = () => [check?.({ n: 1, tags: ["a"] }), check?.({ n: "1", tags: [2] }), check?.("text"), broken?.({ id: "x" })];
    const expected = [
      [],
      ["/n: must be number", "/tags/0: must be string"],
      ["(value): must be object"],
      ["the outputSchema cannot be compiled: Invalid regular expression: /(/u: Unterminated group"],
    ];
    expect(answers()).toEqual(expected);
    expect(Compile).not.toHaveBeenCalled();
    await loadSchemaCompiler();
    expect(answers()).toEqual(expected);
    expect(Compile).toHaveBeenCalledWith(schema);
  });

  it("checks nothing for a tool without an outputSchema", () => {
    expect(outputChecker(undefined)).toBeUndefined();
  });
});
