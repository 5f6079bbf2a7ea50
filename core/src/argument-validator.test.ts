import { describe, expect, it, vi } from "vitest";
import { Compile } from "@weft/sdk/typebox";
import { ArgumentValidator } from "./argument-validator.js";

vi.mock("@weft/sdk/typebox", async (importOriginal) => {
  const typebox = await importOriginal<typeof import("@weft/sdk/typebox")>();
  return { ...typebox, Compile: vi.fn(typebox.Compile) };
});

describe("the argument validator", () => {
  it("compiles a schema once for every executor of the process (each session has its own)", () => {
    const tool = { inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
    const sessions = [new ArgumentValidator(), new ArgumentValidator()];
    for (const validator of sessions) {
      expect(validator.problems(tool, { city: "Paris" })).toEqual([]);
      expect(validator.problems(tool, {})).toEqual(["(arguments): must have required properties city"]);
    }
    expect(Compile).toHaveBeenCalledTimes(1);
  });
});
