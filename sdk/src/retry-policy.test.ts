import { describe, expect, it } from "vitest";
import { RETRYABLE_STATUSES, parseRetryAfter, retryDelay } from "./retry-policy.js";

const policy = { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000, maxRetryAfterMs: 5000 };

describe("retry policy", () => {
  it("retries timeouts, conflicts, rate limits, server errors, Cloudflare's 524 and Anthropic's 529, nothing else", () => {
    expect([...RETRYABLE_STATUSES].sort()).toEqual([408, 409, 429, 500, 502, 503, 504, 524, 529]);
  });

  it("reads Retry-After as seconds, as an HTTP date, and retry-after-ms first", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }), now)).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after": "0.5" }), now)).toBe(500);
    expect(parseRetryAfter(new Headers({ "retry-after": "Wed, 01 Jan 2025 00:00:03 GMT" }), now)).toBe(3000);
    expect(parseRetryAfter(new Headers({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }), now)).toBe(0);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "9" }), now)).toBe(250);
    expect(parseRetryAfter(new Headers({ "retry-after": "soon" }), now)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined();
  });

  it("honours Retry-After up to maxRetryAfterMs, without jitter and past the backoff cap; beyond it, no retry", () => {
    expect(retryDelay(0, policy, new Headers({ "retry-after": "0.3" }))).toBe(300);
    expect(retryDelay(0, policy, new Headers({ "retry-after": "5" }))).toBe(5000);
    expect(retryDelay(0, policy, new Headers({ "retry-after": "5.1" }))).toBeUndefined();
  });

  it("backs off exponentially with jitter between half and all of the step, capped", () => {
    expect(retryDelay(0, policy, undefined, () => 0)).toBe(50);
    expect(retryDelay(0, policy, undefined, () => 1)).toBe(100);
    expect(retryDelay(2, policy, undefined, () => 1)).toBe(400);
    expect(retryDelay(2, policy, undefined, () => 0)).toBe(200);
    expect(retryDelay(10, policy, undefined, () => 1)).toBe(1000);
  });
});
