/** When and how long a provider request waits before it is sent again. */
export interface RetryPolicy {
  /** Retries after the first attempt (default 3). */
  maxRetries: number;
  /** The first backoff; each retry doubles it (default 500 ms). */
  baseDelayMs: number;
  /** The longest single wait, backoff or `Retry-After` alike (default 30 s). */
  maxDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000 });

/** Statuses worth another try: rate limits, server errors, gateway failures, Anthropic's 529 overloaded. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

/**
 * What the server asked for, in ms: `retry-after-ms` (OpenAI), else `Retry-After` as seconds or an
 * HTTP date. Undefined when absent or unreadable; a date in the past gives 0.
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
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
 * The wait before retry number `attempt + 1`: the server's `Retry-After` when it sent one, else
 * exponential backoff with jitter (between half and all of `baseDelayMs * 2^attempt`), never more
 * than `maxDelayMs`.
 */
export function retryDelay(attempt: number, policy: RetryPolicy, headers?: Headers, random: () => number = Math.random): number {
  const asked = headers ? parseRetryAfter(headers) : undefined;
  if (asked !== undefined) return Math.min(asked, policy.maxDelayMs);
  const backoff = Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
  return backoff * (0.5 + random() / 2);
}
