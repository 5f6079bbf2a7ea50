import type { ResponseHeaders } from "./response-headers.js";

/** When and how long a provider request waits before it is sent again. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** The first backoff; each retry doubles it (default 500 ms). */
  baseDelayMs: number;
  /** The longest backoff between tries (default 30 s). */
  maxDelayMs: number;
  /**
   * The longest `Retry-After` honoured (default 60 s). A provider that asks for longer is not
   * waited for: the request fails at once, saying how long it asked.
   */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 });

/**
 * Statuses worth another try: request timeout (408), conflict (409, which OpenAI and Anthropic
 * clients retry), rate limits, server errors, gateway failures, Cloudflare's 524 timeout and
 * Anthropic's 529 overloaded.
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429, 500, 502, 503, 504, 524, 529]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * What the server asked for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an
 * HTTP date. Undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(headers: ResponseHeaders, now: number = Date.now()): number | undefined {
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const value = Number(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get("retry-after")?.trim();
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header)) return Number(header) * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * The wait before retry number `attempt + 1`: the server's `Retry-After` when it sent one (up to
 * `maxRetryAfterMs`; beyond it undefined: do not retry), else exponential backoff with jitter
 * (between half and all of `baseDelayMs * 2^attempt`), never more than `maxDelayMs`.
 */
export function retryDelay(attempt: number, policy: RetryPolicy, headers?: ResponseHeaders, random: () => number = Math.random): number | undefined {
  const asked = headers ? parseRetryAfter(headers) : undefined;
  if (asked !== undefined) return asked <= policy.maxRetryAfterMs ? asked : undefined;
  return backoffDelay(attempt, policy, random);
}

/** Exponential backoff with jitter, for a retry the server set no wait for. */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const backoff = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  return backoff * (0.5 + random() / 2);
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
