/** How a remote server whose session was lost is reconnected. */
export interface ReconnectPolicy {
  /** Wait before the second attempt (the first runs at once); it doubles after each failure. */
  initialDelayMs: number;
  /** The longest wait between two attempts. */
  maxDelayMs: number;
  /** Failed attempts in a row after which the server is `failed` (its tools go; `start` tries again). */
  attempts: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { initialDelayMs: 500, maxDelayMs: 30_000, attempts: 8 };

/** The wait before the next attempt after `failures` failed ones in a row (0: at once). */
export function reconnectDelay(policy: ReconnectPolicy, failures: number): number {
  if (failures === 0) return 0;
  return Math.min(policy.initialDelayMs * 2 ** (failures - 1), policy.maxDelayMs);
}
