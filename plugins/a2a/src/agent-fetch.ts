import { setTimeout as sleep } from "node:timers/promises";
import { callHeaders } from "@weft/sdk";
import { retryDelay, type RetryPolicy } from "@weft/sdk/provider";
import { AgentHttpError, AgentTransportError, failureKind } from "./transport-failure.js";

/** Transient failures are retried this way: few tries, short waits (a call has its own deadline). */
export const AGENT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({ maxRetries: 3, baseDelayMs: 250, maxDelayMs: 5_000, maxRetryAfterMs: 5_000 });

/** Gateways saying the agent behind them did not answer: nothing was done, so trying again is safe. */
const GATEWAY_STATUSES = new Set([502, 503, 504]);

export interface AgentFetchOptions {
  /** The configured headers (credentials): sent only to `origins`. */
  headers: Record<string, string>;
  /** The origins the headers may go to (`https://host:port`). */
  origins: ReadonlySet<string>;
  /** What a 401/403 from `url` should tell the model to do. */
  unauthorized(url: URL, status: number): string;
  retry?: RetryPolicy;
}

/**
 * The fetch every request to one agent goes through (its card and every A2A call): credential headers
 * only to the origins they were configured for, redirects never followed with them (the caller sees
 * the 3xx), refused connections and gateway errors retried with capped backoff, a failure that never
 * got an answer named with its URL, and a 401/403 that says what the card wants.
 */
export function agentFetch(options: AgentFetchOptions): typeof fetch {
  const entries = Object.entries(options.headers);
  const policy = options.retry ?? AGENT_RETRY_POLICY;
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    if (options.origins.has(url.origin)) for (const [name, value] of entries) headers.set(name, value);
    // Trace context is no credential: it goes wherever the call goes.
    for (const [name, value] of Object.entries(callHeaders())) headers.set(name, value);
    const signal = init?.signal ?? undefined;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(input, { ...init, headers, redirect: "manual" });
      } catch (error) {
        if (signal?.aborted) throw error;
        const kind = failureKind(error);
        // Refused: the request never reached the agent. A reset may have reached it, so only reads retry those (the caller decides).
        if (kind === "refused" && attempt < policy.maxRetries) {
          await sleep(retryDelay(attempt, policy), undefined, { signal });
          continue;
        }
        throw new AgentTransportError(kind, url.href, error);
      }
      if (GATEWAY_STATUSES.has(response.status)) {
        await response.body?.cancel();
        if (attempt < policy.maxRetries) {
          await sleep(retryDelay(attempt, policy, response.headers), undefined, { signal });
          continue;
        }
        throw new AgentHttpError(url.href, response.status, `${response.status} from ${url.href} after ${attempt + 1} attempts`);
      }
      if (response.status === 401 || response.status === 403) {
        await response.body?.cancel();
        throw new AgentHttpError(url.href, response.status, options.unauthorized(url, response.status));
      }
      return response;
    }
  };
}
