import { TerminalError, type RunOptions } from "@restatedev/restate-sdk";
import { ProviderError } from "@weft/sdk";
import { isRetryableStatus } from "@weft/sdk/provider";

/**
 * How a failed model call is retried on Restate, on top of the provider's own retries inside the
 * call. Unset fields keep Restate's defaults (retry until the invocation is cancelled, 50 ms doubling
 * to 10 s). When the attempts or the duration run out, the turn fails with a terminal error naming
 * the provider's.
 */
export interface ModelRetryPolicy {
  /** Attempts of one model call, the first included. */
  maxAttempts?: number;
  /** Give up after this long (ms) of retrying one model call. */
  maxDurationMs?: number;
  initialIntervalMs?: number;
  maxIntervalMs?: number;
  /** Growth of the interval per attempt (2 by default). */
  factor?: number;
}

export function runOptionsOf<T>(policy: ModelRetryPolicy = {}): RunOptions<T> {
  return {
    ...(policy.maxAttempts !== undefined ? { maxRetryAttempts: policy.maxAttempts } : {}),
    ...(policy.maxDurationMs !== undefined ? { maxRetryDuration: policy.maxDurationMs } : {}),
    ...(policy.initialIntervalMs !== undefined ? { initialRetryInterval: policy.initialIntervalMs } : {}),
    ...(policy.maxIntervalMs !== undefined ? { maxRetryInterval: policy.maxIntervalMs } : {}),
    ...(policy.factor !== undefined ? { retryIntervalFactor: policy.factor } : {}),
  };
}

/** A provider's refusal (400, 401, 404...) would be the same on every attempt: it ends the turn at once. */
export function terminalIfFinal(error: unknown): unknown {
  if (error instanceof ProviderError && error.status !== undefined && !isRetryableStatus(error.status)) {
    return new TerminalError(`${error.code}: ${error.message}`);
  }
  return error;
}
