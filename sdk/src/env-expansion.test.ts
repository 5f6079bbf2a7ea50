import { describe, expect, it } from "vitest";
import { expandEnvVariables } from "./env-expansion.js";

describe("expandEnvVariables", () => {
  const env = { KEY: "sk-123", EMPTY: "", HOST: "example.com" };

  it("expands ${VAR} and ${VAR:-default}, leaving a bare $VAR literal", () => {
    expect(expandEnvVariables("Bearer ${KEY}", env)).toBe("Bearer sk-123");
    expect(expandEnvVariables("https://${HOST:-localhost}/${MISSING:-v1}", env)).toBe("https://example.com/v1");
    expect(expandEnvVariables("${EMPTY:-fallback} $KEY ${KEY", env)).toBe("fallback $KEY ${KEY");
    expect(expandEnvVariables("${EMPTY}", env)).toBe("");
  });

  it("does not expand a value again", () => {
    expect(expandEnvVariables("${NESTED}", { NESTED: "${KEY}", KEY: "x" })).toBe("${KEY}");
  });

  it("collects the values taken from the environment, not the defaults", () => {
    const expanded = new Set<string>();
    expandEnvVariables("${KEY} ${HOST} ${MISSING:-plain}", env, expanded);
    expect([...expanded]).toEqual(["sk-123", "example.com"]);
  });

  it("names an unset variable without a default", () => {
    expect(() => expandEnvVariables("Bearer ${OPENAI_API_KEY}", env)).toThrow(
      "environment variable OPENAI_API_KEY is not set (set it, or write ${OPENAI_API_KEY:-default} for a fallback)",
    );
  });
});
