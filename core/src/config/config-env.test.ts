import { describe, expect, it } from "vitest";
import { parseConfigDocument } from "./config-yaml.js";

describe("weft.config.yaml with ${VAR}", () => {
  it("expands variables in string values and keeps what they took", () => {
    const doc = parseConfigDocument(
      "/app/weft.config.yaml",
      'model: ${MODEL:-anthropic/claude-sonnet-4-5}\nplugins:\n  - openrouter: { compatible: { baseUrl: "${BASE}/v1", apiKey: "${KEY}" } }\n',
      { BASE: "http://127.0.0.1:8080", KEY: "sk-1" },
    );
    expect(doc.value()).toEqual({
      model: "anthropic/claude-sonnet-4-5",
      plugins: [{ openrouter: { compatible: { baseUrl: "http://127.0.0.1:8080/v1", apiKey: "sk-1" } } }],
    });
    expect([...doc.expandedValues]).toEqual(["http://127.0.0.1:8080", "sk-1"]);
  });

  it("names the unset variable with the file, line and column", () => {
    expect(() => parseConfigDocument("/app/weft.config.yaml", "model: anthropic/x\nagents:\n  - card: https://a.example\n    headers:\n      Authorization: Bearer ${TOKEN}\n", {})).toThrow(
      "/app/weft.config.yaml:5:22: environment variable TOKEN is not set (set it, or write ${TOKEN:-default} for a fallback)",
    );
  });
});
