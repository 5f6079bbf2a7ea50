import { describe, expect, it } from "vitest";
import { httpStatusError, readProviderFaultText } from "./provider-errors.js";
import { requireApiKey } from "./provider-settings.js";
import { echoed, redactSecrets, registerSecret } from "./secret-redaction.js";
import { errorResult } from "./tool.js";

describe("secret redaction", () => {
  it("redacts an API key that a provider's error body echoes", () => {
    const key = requireApiKey("anthropic", "sk-ant-test-0123456789abcdef", "ANTHROPIC_API_KEY");
    const fault = readProviderFaultText(JSON.stringify({ type: "error", error: { type: "authentication_error", message: `invalid x-api-key: ${key}` } }));
    const error = httpStatusError("anthropic", 401, fault, 0);
    expect(error.message).toBe("anthropic: HTTP 401 authentication_error: invalid x-api-key: [redacted]; the API key was rejected; check the key");
    expect(error.providerMessage).toBe("invalid x-api-key: [redacted]");
  });

  it("redacts registered values from tool error results, and ignores values too short to be credentials", () => {
    registerSecret("ghp_tokenvalue123");
    registerSecret("abc");
    expect(errorResult("server said: Bearer ghp_tokenvalue123 rejected (abc)").output).toBe("server said: Bearer [redacted] rejected (abc)");
    expect(redactSecrets("nothing here")).toBe("nothing here");
  });

  it("caps an echoed value at 200 characters", () => {
    const name = "p".repeat(10 * 1024 * 1024);
    expect(echoed(name)).toBe(`${"p".repeat(200)}… (${name.length - 200} more characters)`);
    expect(echoed("short")).toBe("short");
  });
});
