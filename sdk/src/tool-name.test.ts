import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sanitizeToolName, validToolName } from "./tool-name.js";

describe("validToolName", () => {
  it("accepts 1-64 letters, digits, _ and -", () => {
    expect(validToolName("a")).toBe(true);
    expect(validToolName("file_read-2")).toBe(true);
    expect(validToolName("x".repeat(64))).toBe(true);
  });
  it("rejects empty, too long and other characters", () => {
    expect(validToolName("")).toBe(false);
    expect(validToolName("x".repeat(65))).toBe(false);
    expect(validToolName("a.b")).toBe(false);
    expect(validToolName("a b")).toBe(false);
    expect(validToolName("é")).toBe(false);
  });
});

describe("sanitizeToolName", () => {
  it("replaces every other character with _", () => {
    expect(sanitizeToolName("get.weather now")).toBe("get_weather_now");
    expect(sanitizeToolName("ok_name")).toBe("ok_name");
  });

  it("shortens a long name to 57 characters, _ and 6 hex digits of its SHA-256", () => {
    const name = "a".repeat(40) + "b".repeat(40);
    const hash = createHash("sha256").update(name).digest("hex").slice(0, 6);
    const sanitized = sanitizeToolName(name);
    expect(sanitized).toBe(`${"a".repeat(40)}${"b".repeat(17)}_${hash}`);
    expect(sanitized).toHaveLength(64);
    expect(sanitizeToolName(name)).toBe(sanitized);
    expect(validToolName(sanitized)).toBe(true);
  });

  it("disambiguates a collision within one batch, stably", () => {
    const taken = new Set<string>();
    const first = sanitizeToolName("a.b", taken);
    const second = sanitizeToolName("a_b", taken);
    const hash = createHash("sha256").update("a_b").digest("hex").slice(0, 6);
    expect(first).toBe("a_b");
    expect(second).toBe(`a_b_${hash}`);
    expect([...taken]).toEqual(["a_b", `a_b_${hash}`]);
  });
});
