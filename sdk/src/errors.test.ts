import { describe, expect, it } from "vitest";
import { errorCode, isAbortError, isWeftError } from "./errors.js";

describe("errorCode", () => {
  it("reads a string code from anything thrown and nothing else", () => {
    expect(errorCode(Object.assign(new Error("gone"), { code: "ENOENT" }))).toBe("ENOENT");
    expect(errorCode({ code: "EACCES" })).toBe("EACCES");
    expect(errorCode(Object.assign(new Error("odd"), { code: 42 }))).toBeUndefined();
    expect(errorCode(new Error("plain"))).toBeUndefined();
    expect(errorCode("ENOENT")).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
    expect(errorCode(undefined)).toBeUndefined();
  });

  it("is what isWeftError and isAbortError read", () => {
    expect(isWeftError(Object.assign(new Error("copy of the sdk"), { code: "CONFIG_INVALID" }))).toBe(true);
    expect(isWeftError(Object.assign(new Error("node"), { code: "ERR_invalid" }))).toBe(false);
    expect(isWeftError({ code: "CONFIG_INVALID", message: "not an Error" })).toBe(false);
    expect(isAbortError(Object.assign(new Error("stopped"), { code: "ABORTED" }))).toBe(true);
    expect(isAbortError(Object.assign(new Error("stopped"), { code: "ABORT" }))).toBe(false);
  });
});
