import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ProviderError } from "./errors.js";
import {
  httpStatusError,
  idleTimeoutError,
  malformedChunkError,
  parseJsonChunk,
  readProviderFault,
  readProviderFaultText,
  streamFaultError,
  truncatedStreamError,
} from "./provider-errors.js";

const fixtures = new URL("../../fixtures/providers/", import.meta.url);

describe("provider faults", () => {
  it("reads the error shapes of Anthropic, OpenAI, OpenRouter and Ollama", () => {
    expect(readProviderFault({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })).toEqual({ type: "overloaded_error", message: "Overloaded" });
    const openai = JSON.parse(readFileSync(new URL("openai-compatible/openai--reasoning-model-legacy-parameter-error.json", fixtures), "utf8"));
    expect(readProviderFault(openai)).toEqual({
      type: "invalid_request_error",
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    });
    expect(readProviderFault({ error: { code: 429, message: "Rate limit exceeded", metadata: { error_type: "rate_limit_exceeded" } } })).toEqual({
      type: "rate_limit_exceeded",
      message: "Rate limit exceeded",
    });
    expect(readProviderFault({ error: { code: 402, message: "Insufficient credits" } })).toEqual({ message: "Insufficient credits" });
    expect(readProviderFault({ error: { code: "context_length_exceeded", message: "Too long" } })).toEqual({ type: "context_length_exceeded", message: "Too long" });
    expect(readProviderFault({ error: "model 'llama9' not found" })).toEqual({ message: "model 'llama9' not found" });
    expect(readProviderFault("nope")).toEqual({});
  });

  it("uses a non-JSON error body as the message, shortened, and names an HTML page by its title", () => {
    expect(readProviderFaultText("<html>Bad Gateway</html>")).toEqual({ message: "an HTML page instead of the API's answer" });
    expect(readProviderFaultText("<html><title>Bad Gateway</title></html>")).toEqual({ message: 'an HTML page titled "Bad Gateway" instead of the API\'s answer' });
    expect(readProviderFaultText("Bad Gateway")).toEqual({ message: "Bad Gateway" });
    expect(readProviderFaultText("x".repeat(300)).message).toBe(`${"x".repeat(200)}…`);
    expect(readProviderFaultText("  ")).toEqual({});
  });
});

describe("provider error messages", () => {
  it("says what failed and what to do", () => {
    const error = httpStatusError("anthropic", 429, { type: "rate_limit_error", message: "Slow down" }, 3);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.message).toBe("anthropic: HTTP 429 rate_limit_error: Slow down (after 3 retries); rate limited; wait and try again, or lower the request rate");
    expect(error).toMatchObject({ code: "PROVIDER_ERROR", provider: "anthropic", status: 429, providerType: "rate_limit_error", providerMessage: "Slow down", retries: 3, retried: true });
    expect(httpStatusError("ollama", 503, {}, 1).message).toBe("ollama: HTTP 503 (after 1 retry); the provider is failing or overloaded; try again later");
    expect(httpStatusError("openrouter", 401, { message: "No auth" }, 0, "set OPENROUTER_API_KEY").message).toBe("openrouter: HTTP 401 No auth; set OPENROUTER_API_KEY");
    expect(streamFaultError("openrouter", { type: "rate_limit_exceeded", message: "Rate limit exceeded" }, 0, 429).message).toBe(
      "openrouter: the provider reported an error mid-stream: rate_limit_exceeded: Rate limit exceeded",
    );
    expect(truncatedStreamError("anthropic", "message_stop", 0).message).toBe(
      "anthropic: the response stream ended before message_stop: the reply is incomplete (the connection may have dropped); try again",
    );
    expect(idleTimeoutError("ollama", 50, 0).message).toBe(
      "ollama: no data from the provider for 50 ms, so the request was dropped; try again, or raise idleTimeoutMs if the model is slow to start",
    );
    expect(malformedChunkError("openrouter", "{oops", new SyntaxError("bad"), 0).message).toBe("openrouter: malformed JSON in the response (bad): {oops");
  });

  it("parseJsonChunk names the provider when a chunk is not JSON", () => {
    expect(parseJsonChunk("x", '{"a":1}', 0)).toEqual({ a: 1 });
    expect(() => parseJsonChunk("openai-compatible", '{"choices": [', 2)).toThrow(/^openai-compatible: malformed JSON in the response \(.+\): \{"choices": \[$/);
  });
});
