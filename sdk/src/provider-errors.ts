import { ProviderError, errorMessage } from "./errors.js";
import { isRetryableStatus } from "./retry-policy.js";
import { isRecord } from "./is-record.js";

/** A provider's own description of a failure, read from an error body or a mid-stream error event. */
export interface ProviderFault {
  message?: string;
  type?: string;
}

/**
 * Reads the error shapes providers send: `{error: {message, type}}` (Anthropic, OpenAI), `{error:
 * {code, message, metadata: {error_type}}}` (OpenRouter), `{error: "text"}` (Ollama), `{message}`.
 */
export function readProviderFault(body: unknown): ProviderFault {
  if (!isRecord(body)) return {};
  const error = body.error;
  if (typeof error === "string") return { message: error };
  const source = isRecord(error) ? error : body;
  const fault: ProviderFault = {};
  if (typeof source.message === "string") fault.message = source.message;
  const metadata = isRecord(source.metadata) ? source.metadata : undefined;
  // A numeric `code` (OpenRouter) only repeats the HTTP status; a string one (OpenAI) names the error.
  const type = source.type ?? metadata?.error_type ?? (typeof source.code === "string" ? source.code : undefined);
  if (typeof type === "string") fault.type = type;
  return fault;
}

/** The fault in a body that may not be JSON: a non-JSON body becomes the message, shortened; an HTML page is named by its title. */
export function readProviderFaultText(text: string): ProviderFault {
  const page = describeHtml(text);
  if (page) return { message: page };
  try {
    const fault = readProviderFault(JSON.parse(text));
    if (fault.message !== undefined || fault.type !== undefined) return fault;
  } catch {
    // not JSON: the text itself is the best message there is
  }
  const trimmed = text.trim();
  return trimmed ? { message: excerpt(trimmed) } : {};
}

const STATUS_HINTS: Record<number, string> = {
  400: "the provider rejected the request; check the model name and request settings",
  401: "the API key was rejected; check the key",
  402: "the account has no credit left; add credit with the provider",
  403: "the API key may not make this request; check its permissions",
  404: "not found; check baseUrl and the model name",
  413: "the request is too large; shorten the conversation",
  429: "rate limited; wait and try again, or lower the request rate",
};

function statusHint(status: number): string {
  return STATUS_HINTS[status] ?? (status >= 500 ? "the provider is failing or overloaded; try again later" : "the provider refused the request");
}

function describeFault(fault: ProviderFault): string {
  return [fault.type, fault.message].filter((part) => part !== undefined && part !== "").join(": ");
}

function retriedNote(retries: number): string {
  return retries > 0 ? ` (after ${retries} ${retries === 1 ? "retry" : "retries"})` : "";
}

/** An HTTP failure: `anthropic: HTTP 400 invalid_request_error: <message>. <what to do>`. */
export function httpStatusError(provider: string, status: number, fault: ProviderFault, retries: number, hint?: string): ProviderError {
  const described = describeFault(fault);
  const message = `HTTP ${status}${described ? ` ${described}` : ""}${retriedNote(retries)}; ${hint ?? statusHint(status)}`;
  return new ProviderError(message, { provider, status, providerMessage: fault.message, providerType: fault.type, retries });
}

/**
 * What an HTML body is, for an error: `an HTML page titled "502 Bad Gateway"`. Undefined when the
 * text is not HTML.
 */
export function describeHtml(text: string): string | undefined {
  const head = text.trimStart().slice(0, 512).toLowerCase();
  if (!head.startsWith("<!doctype html") && !head.startsWith("<html") && !/^<(head|body|title)[\s>]/.test(head)) return undefined;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.replace(/\s+/g, " ").trim();
  return title ? `an HTML page titled "${excerpt(title, 120)}" instead of the API's answer` : "an HTML page instead of the API's answer";
}

/** A 2xx answer that is an HTML page: a proxy, a captive portal or a baseUrl that is not the API. */
export function htmlPageError(provider: string, status: number, text: string, retries: number): ProviderError {
  const page = describeHtml(text) ?? "an HTML page instead of the API's answer";
  return new ProviderError(`HTTP ${status} with ${page}; check baseUrl (a proxy or login page may be answering)`, { provider, status, retries });
}

/** A request that never got a response: refused connection, reset, DNS failure, no answer in time. */
export function networkError(provider: string, url: string, cause: unknown, retries: number): ProviderError {
  const reason = errorMessage(cause instanceof Error && cause.cause instanceof Error ? cause.cause : cause);
  return new ProviderError(`request to ${url} failed: ${reason}${retriedNote(retries)}; check baseUrl and that the server is reachable`, { provider, retries }, { cause });
}

/**
 * A redirect (3xx with a Location). Provider requests do not follow redirects, so that a request and
 * the key it carries go only where baseUrl points.
 */
export function redirectError(provider: string, status: number, location: string | undefined, retries: number): ProviderError {
  const where = location === undefined ? "without a Location" : `to ${location}`;
  return new ProviderError(`HTTP ${status} redirect ${where}; set baseUrl to the address the API answers at (provider requests do not follow redirects)`, {
    provider,
    status,
    retries,
  });
}

/** The connection failed while the body was being read: what arrived so far is not a whole reply. */
export function brokenStreamError(provider: string, cause: unknown, retries: number): ProviderError {
  return new ProviderError(`the connection broke while the reply was streaming (${errorMessage(cause)}); try again`, { provider, retries }, { cause });
}

/** Error types of stream error events that are retried like their HTTP statuses (529, 429, 5xx). */
export const RETRYABLE_FAULT_TYPES: ReadonlySet<string> = new Set(["overloaded_error", "rate_limit_error", "api_error", "server_error", "timeout_error"]);

/**
 * An error the provider reported inside a stream that had started well (HTTP 200). It is
 * `retryable` when its type or status is one worth another try: the model retries it if nothing had
 * been streamed yet.
 */
export function streamFaultError(provider: string, fault: ProviderFault, retries: number, status?: number): ProviderError {
  const described = describeFault(fault) || "no details given";
  const retryable = (fault.type !== undefined && RETRYABLE_FAULT_TYPES.has(fault.type)) || (status !== undefined && isRetryableStatus(status));
  return new ProviderError(`the provider reported an error mid-stream: ${described}`, {
    provider,
    status,
    providerMessage: fault.message,
    providerType: fault.type,
    retries,
    retryable,
  });
}

/** A stream chunk that is not the JSON it should be. */
export function malformedChunkError(provider: string, text: string, cause: unknown, retries: number): ProviderError {
  return new ProviderError(`malformed JSON in the response (${errorMessage(cause)}): ${excerpt(text)}`, { provider, retries }, { cause });
}

/** A whole reply that parsed as JSON but is not the object every provider answers with. */
export function notAnObjectError(provider: string, text: string, retries: number): ProviderError {
  return new ProviderError(`the response is JSON but not an object: ${excerpt(text)}`, { provider, retries });
}

/** A stream that stopped before its terminal event: the reply is cut short, never a valid answer. */
export function truncatedStreamError(provider: string, terminal: string, retries: number): ProviderError {
  return new ProviderError(
    `the response stream ended before ${terminal}: the reply is incomplete (the connection may have dropped); try again`,
    { provider, retries },
  );
}

/** No byte arrived for `idleTimeoutMs`. */
export function idleTimeoutError(provider: string, idleTimeoutMs: number, retries: number): ProviderError {
  return new ProviderError(
    `no data from the provider for ${idleTimeoutMs} ms, so the request was dropped; try again, or raise idleTimeoutMs if the model is slow to start`,
    { provider, retries },
  );
}

/** Parses one JSON chunk of a stream, failing with a ProviderError that names the provider. */
export function parseJsonChunk(provider: string, text: string, retries: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedChunkError(provider, text, error, retries);
  }
}

function excerpt(text: string, limit = 200): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}
