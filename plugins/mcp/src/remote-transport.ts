import { SdkHttpError, SSEClientTransport, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import type { FetchLike, OAuthClientProvider, Transport } from "@modelcontextprotocol/client";
import { errorMessage } from "@weft/sdk";
import type { RemoteEndpoint } from "./config.js";

/**
 * The transports to try for a remote server, in order: Streamable HTTP then legacy SSE for `http`, SSE
 * alone for `sse`. Both resume a broken event stream (Last-Event-ID, honouring the server's `retry`).
 */
export function remoteTransports(endpoint: RemoteEndpoint, fetch?: FetchLike, authProvider?: OAuthClientProvider): (() => Transport)[] {
  const url = new URL(endpoint.url);
  const requestInit: RequestInit = { headers: endpoint.headers };
  const sse = () => new SSEClientTransport(url, { requestInit, fetch, authProvider });
  if (endpoint.kind === "sse") return [sse];
  return [() => new StreamableHTTPClientTransport(url, { requestInit, fetch, authProvider }), sse];
}

/**
 * Whether a failed Streamable HTTP handshake means "this is a legacy SSE server": it answered the POST
 * with a client error other than an authorization one. A refused connection or a timeout would fail the
 * same way over SSE, so those are reported as they are.
 */
export function isLegacyServerAnswer(error: unknown): boolean {
  if (!(error instanceof SdkHttpError)) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 401 && error.status !== 403;
}

/** A network failure said plainly: `fetch failed` hides the cause (ECONNREFUSED, ENOTFOUND) in `cause`. */
export function describeRemoteFailure(error: unknown, url: string): string {
  if (error instanceof SdkHttpError && (error.status === 401 || error.status === 403)) {
    return `the server at ${url} refused the request without authorization (HTTP ${error.status}); add "auth": {} to its entry for OAuth, or give it a token in "headers" (for example "Authorization": "Bearer \${TOKEN}")`;
  }
  if (error instanceof SdkHttpError && isSessionGone(error)) return `the server at ${url} no longer knows this session (it restarted, or the session expired)`;
  const causeCode = networkCode(error);
  if (causeCode === "ECONNREFUSED") return `cannot reach ${url}: connection refused (is the server running?)`;
  if (causeCode === "ECONNRESET") return `cannot reach ${url}: the connection was reset (did the server stop?)`;
  if (causeCode === "ENOTFOUND") return `cannot reach ${url}: unknown host`;
  if (causeCode) return `cannot reach ${url}: ${causeCode}`;
  return errorMessage(error);
}

/** The system error code (ECONNREFUSED, …) under a failed fetch: `fetch failed` keeps it in its `cause`, which the SDK may wrap once more. */
function networkCode(error: unknown): string | undefined {
  let cause = (error as { cause?: unknown } | undefined)?.cause;
  for (let depth = 0; depth < 3 && typeof cause === "object" && cause !== null; depth++) {
    const { code } = cause as { code?: unknown };
    if (typeof code === "string") return code;
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Connection failures that mean nothing reached the server, so the request may be sent again elsewhere. */
const NEVER_SENT = new Set(["ECONNREFUSED"]);

/**
 * Whether a failed request means "this session is gone" (the server restarted or is down): a 404, a
 * 400 that says the session id is not valid, or a refused connection. None of these ran the request, so
 * it is safe to send it again over a new session.
 */
export function isSessionGone(error: unknown): boolean {
  if (error instanceof SdkHttpError) {
    if (error.status === 404) return true;
    if (error.status === 400 && /session/i.test(error.message)) return true;
  }
  const causeCode = networkCode(error);
  return causeCode !== undefined && NEVER_SENT.has(causeCode);
}

/**
 * Whether a transport error says an event stream broke (the server went away mid-response, or the
 * standalone GET stream died). The SDK then retries the stream on its own, so the session may still be
 * alive: the connection checks with a ping before it gives the session up.
 */
export function isStreamBreak(error: unknown): boolean {
  const message = errorMessage(error);
  return /^(SSE stream disconnected|Failed to reconnect|Maximum reconnection attempts|SSE error)/.test(message);
}
