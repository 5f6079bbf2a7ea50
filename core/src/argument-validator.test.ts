import { describe, expect, it, vi } from "vitest";
import { Compile } from "@weft/sdk/typebox";
import { loadSchemaCompiler } from "@weft/sdk";
import { ArgumentValidator } from "./argument-validator.js";

vi.mock("@weft/sdk/typebox", async (importOriginal) => {
  const typebox = await importOriginal<typeof import("@weft/sdk/typebox")>();
  return { ...typebox, Compile: vi.fn(typebox.Compile) };
});

describe("the argument validator", () => {
  const tool = { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

  it("loads typebox's checker when asked, not with the sdk, and says when it is not there yet", async () => {
    vi.resetModules();
    const sdk = await import("@weft/sdk");
    const { ArgumentValidator: Fresh } = await import("./argument-validator.js");
    const validator = new Fresh();
    expect(validator.ready).toBe(false);
    expect(() => validator.problems(tool, { city: "Paris" })).toThrow("schemaErrors: typebox's checker is not loaded; await loadSchemaChecker() first");
    await validator.load();
    expect(validator.ready).toBe(true);
    expect(sdk.schemaCheckerLoaded()).toBe(true);
    expect(validator.problems(tool, { city: 3 })).toEqual(["/city: must be string"]);
  });

  it("checks a call before the compiler has loaded as after it, and compiles a schema once for every executor of the process (each session has its own)", async () => {
    const first = new ArgumentValidator();
    await first.load();
    expect(first.problems(tool, { city: "Paris" })).toEqual([]);
    expect(first.problems(tool, { city: 3 })).toEqual(["/city: must be string"]);
    expect(Compile).not.toHaveBeenCalled();
    await loadSchemaCompiler();
    for (const validator of [first, new ArgumentValidator()]) {
      expect(validator.problems(tool, { city: "Paris" })).toEqual([]);
      expect(validator.problems(tool, { city: 3 })).toEqual(["/city: must be string"]);
      expect(validator.problems(tool, {})).toEqual(["(arguments): must have required properties city"]);
    }
    expect(Compile).toHaveBeenCalledTimes(1);
  });
});
