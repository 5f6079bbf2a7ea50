import type { IncomingMessage } from "node:http";
import { DEFAULT_RETRY_POLICY, abortableSleep, backoffDelay, isRetryableStatus, parseRetryAfter, retryDelay, type RetryPolicy } from "./retry-policy.js";
import {
  brokenStreamError,
  htmlPageError,
  httpStatusError,
  idleTimeoutError,
  networkError,
  notAnObjectError,
  parseJsonChunk,
  readProviderFaultText,
  redirectError,
} from "./provider-errors.js";
import { httpRequest } from "./http-request.js";
import { IncomingHeaders, type ResponseHeaders } from "./response-headers.js";
import { isRecord } from "./is-record.js";

/** The default idle timeout: how long a request may go without a byte before it is dropped. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

/** Sent unless the request names its own (fetch sent `node`; some gateways refuse a request without one). */
const USER_AGENT = "weft";

export interface ProviderFetchOptions extends Partial<RetryPolicy> {
  /** The provider id, for error messages. */
  provider: string;
  /** Fail when no byte arrives for this long, waiting for the headers or for the next body chunk. */
  idleTimeoutMs?: number;
  /** What to tell the user on a 401, e.g. "check ANTHROPIC_API_KEY". */
  credentialHint?: string;
}

export interface ProviderRequest {
  /** An `http:` or `https:` URL. */
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Instead of `body`: the body already encoded as JSON text (see encodeJsonBody), sent as it is. */
  bodyJson?: string;
  /** Aborting ends the request at once, also while it waits to retry or streams its body. */
  signal?: AbortSignal;
}

/** A successful (2xx) response whose body is read with the idle timeout and abort still in force. */
export interface ProviderResponse {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** How many times the request was retried before this response. */
  readonly retries: number;
  /**
   * The body as it arrives. Stopping early (break) closes the connection, unless the body ends within
   * moments (the usual case after a protocol's last event), which lets the connection be reused. Read it once.
   */
  chunks(): AsyncGenerator<Uint8Array>;
  /** The whole body parsed as JSON; a body that is not JSON is a ProviderError. */
  json(): Promise<unknown>;
  /** The whole body as a JSON object (a non-streamed reply); any other body is a ProviderError. */
  jsonObject(): Promise<Record<string, unknown>>;
}

/**
 * POSTs (or GETs) to a provider with retries: the RETRYABLE_STATUSES and network errors are retried
 * with exponential backoff and jitter, honouring `Retry-After` up to `maxRetryAfterMs` (a longer wait
 * fails at once, naming it); other statuses fail at once with a ProviderError carrying the
 * provider's own message and type. A 2xx HTML page is an error that says what came back, and so is a
 * redirect (it is not followed).
 *
 * The requests go over node:http / node:https with one keep-alive Agent per protocol for the process:
 * a run's model calls reuse one connection, and an idle connection never keeps the process alive.
 */
export async function providerFetch(request: ProviderRequest, options: ProviderFetchOptions): Promise<ProviderResponse> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const { signal } = request;
  const url = providerUrl(options.provider, request.url);
  const json = request.bodyJson ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const init = {
    method: request.method ?? (json === undefined ? "GET" : "POST"),
    headers: { "user-agent": USER_AGENT, ...(json === undefined ? {} : { "content-type": "application/json" }), ...request.headers },
    body: json,
  };
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const connection = new Connection(options.provider, idleTimeoutMs, attempt, signal);
    let response: IncomingMessage;
    try {
      response = await connection.waitFor(httpRequest(url, { ...init, signal: connection.signal }));
    } catch (error) {
      connection.close();
      if (signal?.aborted) throw signal.reason;
      if (attempt < policy.maxRetries) {
        await abortableSleep(backoffDelay(attempt, policy), signal);
        continue;
      }
      throw connection.idled ? idleTimeoutError(options.provider, idleTimeoutMs, attempt) : networkError(options.provider, request.url, error, attempt);
    }
    const status = response.statusCode ?? 0;
    const headers = new IncomingHeaders(response.headers);
    const body = new BodyChunks(connection, response);
    const ok = status >= 200 && status < 300;
    if (ok && !isHtml(headers)) return connection.respond(status, headers, body);
    if (status >= 300 && status < 400) {
      connection.close();
      throw redirectError(options.provider, status, redirectTarget(headers.get("location"), url), attempt);
    }
    const retryable = ok ? false : isRetryableStatus(status);
    const delay = retryable ? retryDelay(attempt, policy, headers) : undefined;
    if (delay !== undefined && attempt < policy.maxRetries) {
      connection.close();
      await abortableSleep(delay, signal);
      continue;
    }
    let text = "";
    try {
      text = await readText(body);
    } catch {
      if (signal?.aborted) throw signal.reason;
      // The error body is a nicety: the status alone still makes the error.
    }
    if (ok) throw htmlPageError(options.provider, status, text, attempt);
    const asked = retryable && attempt < policy.maxRetries ? parseRetryAfter(headers) : undefined;
    const hint = asked !== undefined ? retryAfterBeyondCapHint(asked, policy) : status === 401 ? options.credentialHint : undefined;
    throw httpStatusError(options.provider, status, readProviderFaultText(text), attempt, hint);
  }
}

/**
 * URLs parsed and checked, by their text: a provider sends its requests to a few URLs, so each is
 * parsed once. The URLs are never changed (httpRequest reads each once). Cleared when full.
 */
const checkedUrls = new Map<string, URL>();
const CHECKED_URLS_KEPT = 64;

/** The request's URL, checked once: a URL that is not http(s) can never succeed, so it is not retried. */
function providerUrl(provider: string, text: string): URL {
  const known = checkedUrls.get(text);
  if (known) return known;
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw networkError(provider, text, error, 0);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw networkError(provider, text, new Error(`the protocol ${url.protocol} is not http: or https:`), 0);
  }
  if (checkedUrls.size >= CHECKED_URLS_KEPT) checkedUrls.clear();
  checkedUrls.set(text, url);
  return url;
}

/** Where a redirect points, as an absolute URL when it can be read as one (a Location may be relative). */
function redirectTarget(location: string | null, from: URL): string | undefined {
  if (location === null) return undefined;
  return URL.canParse(location, from.href) ? new URL(location, from).href : location;
}

async function readText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

/**
 * One attempt's connection: an AbortController fed by the caller's signal and by an idle timer that
 * counts only while we wait on the network (not while the consumer works on a chunk). Aborting it
 * destroys the request and its socket.
 *
 * The timer is not re-armed per chunk: a wait records when it began, and the one timer, when it
 * fires, drops the request if the wait under way has lasted the whole timeout, re-arms for the rest
 * if it has not, and stays off while nothing is awaited (the next wait arms it again).
 */
class Connection {
  readonly #controller = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  readonly #unlink: () => void;
  /** When the wait under way began (performance.now()); -1 while the consumer has the chunk. */
  #waitingSince = -1;
  #closed = false;
  idled = false;

  constructor(
    readonly provider: string,
    readonly idleTimeoutMs: number,
    readonly retries: number,
    readonly outer?: AbortSignal,
  ) {
    this.#arm(idleTimeoutMs);
    if (outer) {
      const forward = () => this.#controller.abort(outer.reason);
      outer.addEventListener("abort", forward, { once: true });
      this.#unlink = () => outer.removeEventListener("abort", forward);
    } else {
      this.#unlink = noop;
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  async waitFor<T>(promise: Promise<T>): Promise<T> {
    this.beginWait();
    try {
      return await promise;
    } finally {
      this.endWait();
    }
  }

  beginWait(): void {
    this.#waitingSince = performance.now();
    if (this.#timer === undefined && !this.#closed) this.#arm(this.idleTimeoutMs);
  }

  endWait(): void {
    this.#waitingSince = -1;
  }

  /**
   * Ends the attempt; `completed`: the body was read to its end, so there is no request left to abort
   * (and its socket has gone back to the Agent for the next request).
   */
  close(completed = false): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#unlink();
    // Aborting a finished request would only build a DOMException and dispatch an event for nothing.
    if (!completed && !this.#controller.signal.aborted) this.#controller.abort();
  }

  /** What a failed body read means to the caller: their abort, the idle timeout, or a broken connection. */
  readError(error: unknown): unknown {
    if (this.outer?.aborted) return this.outer.reason;
    if (this.idled) return idleTimeoutError(this.provider, this.idleTimeoutMs, this.retries);
    return brokenStreamError(this.provider, cutShort(error), this.retries);
  }

  respond(status: number, headers: ResponseHeaders, body: BodyChunks): ProviderResponse {
    const { provider, retries } = this;
    return {
      status,
      headers,
      retries,
      chunks: () => body,
      async json() {
        return parseJsonChunk(provider, await readText(body), retries);
      },
      async jsonObject() {
        const text = await readText(body);
        const value = parseJsonChunk(provider, text, retries);
        if (!isRecord(value)) throw notAnObjectError(provider, text, retries);
        return value;
      },
    };
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#check(), ms);
    this.#timer.unref();
  }

  #check(): void {
    this.#timer = undefined;
    if (this.#waitingSince < 0 || this.#closed) return;
    const left = this.#waitingSince + this.idleTimeoutMs - performance.now();
    if (left > 0) {
      this.#arm(Math.ceil(left));
      return;
    }
    this.idled = true;
    this.#controller.abort(idleTimeoutError(this.provider, this.idleTimeoutMs, this.retries));
  }
}

type Waiting = { resolve(result: IteratorResult<Uint8Array, undefined>): void; reject(error: unknown): void };
const ENDED: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
/** How long a body may go on after its consumer stopped before the request is aborted. */
const DRAIN_GRACE_MS = 100;
/**
 * How many chunks may wait unread before the response is paused. A decoder is mostly a moment slower
 * than a fast connection: paused at the first, nearly every chunk cost a pause and a resume (and its
 * tick). A socket read is at most 64 KB, so a paused body holds at most 1 MB.
 */
const UNREAD_BEFORE_PAUSE = 16;

/**
 * A response body's chunks, taken from the response's `data` events: each chunk is the Buffer Node
 * read off the socket (a Uint8Array, not copied). The response flows while a read waits or until a
 * few chunks wait unread, so a slow consumer holds the socket back instead of piling chunks up in memory.
 *
 * Made as soon as the headers arrive, so that a connection that fails before anyone reads the body
 * still has its error seen (and given to the first read).
 */
class BodyChunks implements AsyncGenerator<Uint8Array, undefined> {
  readonly #connection: Connection;
  readonly #response: IncomingMessage;
  /** Chunks that arrived while no read waited (once there are UNREAD_BEFORE_PAUSE, the response is paused until a read empties them). */
  readonly #arrived: Uint8Array[] = [];
  #waiting: Waiting | undefined;
  #flowing = false;
  #ended = false;
  #failure: { error: unknown } | undefined;
  /** The consumer is done with the body: it was read to its end, it failed, or the consumer stopped. */
  #finished = false;
  /** Set while a stopped consumer's body is read to its end (see #drain). */
  #drainTimer: NodeJS.Timeout | undefined;

  constructor(connection: Connection, response: IncomingMessage) {
    this.#connection = connection;
    this.#response = response;
    response.on("end", this.#onEnd);
    response.on("error", this.#onError);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished) return Promise.resolve(ENDED);
    const { signal } = this.#connection;
    if (signal.aborted) return this.#fail(signal.reason);
    const chunk = this.#arrived.shift();
    if (chunk !== undefined) return Promise.resolve({ done: false, value: chunk });
    if (this.#ended) {
      this.#finish(true);
      return Promise.resolve(ENDED);
    }
    if (this.#failure) return this.#fail(this.#failure.error);
    this.#connection.beginWait();
    this.#flow();
    return new Promise((resolve, reject) => (this.#waiting = { resolve, reject }));
  }

  /** Stopping early (break): the consumer is free at once; the connection is closed (or finishes) behind it. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#finished) {
      this.#finished = true;
      this.#arrived.length = 0;
      this.#drain();
    }
    return Promise.resolve(ENDED);
  }

  throw(error: unknown): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#finished) this.#finish(false);
    return Promise.reject(error);
  }

  #flow(): void {
    if (this.#flowing) {
      this.#response.resume();
      return;
    }
    this.#flowing = true;
    this.#response.on("data", this.#onData);
  }

  readonly #onData = (chunk: Buffer): void => {
    if (this.#finished) return; // a stopped consumer's body, drained
    const waiting = this.#takeWaiting();
    if (waiting) {
      waiting.resolve({ done: false, value: chunk });
      return;
    }
    this.#arrived.push(chunk);
    if (this.#arrived.length >= UNREAD_BEFORE_PAUSE) this.#response.pause();
  };

  readonly #onEnd = (): void => {
    this.#ended = true;
    if (this.#finished) {
      this.#drained(true);
      return;
    }
    const waiting = this.#takeWaiting();
    if (waiting) {
      this.#finish(true);
      waiting.resolve(ENDED);
    }
  };

  readonly #onError = (error: unknown): void => {
    if (this.#ended || this.#failure) return;
    this.#failure = { error };
    if (this.#finished) {
      this.#drained(false);
      return;
    }
    const waiting = this.#takeWaiting();
    if (waiting) {
      this.#finish(false);
      waiting.reject(this.#connection.readError(error));
    }
  };

  #takeWaiting(): Waiting | undefined {
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      this.#connection.endWait();
    }
    return waiting;
  }

  #fail(error: unknown): Promise<never> {
    this.#finish(false);
    return Promise.reject(this.#connection.readError(error));
  }

  #finish(completed: boolean): void {
    this.#finished = true;
    this.#connection.close(completed);
  }

  /**
   * A consumer stops early mostly at the protocol's last event (`[DONE]`, `message_stop`), with the
   * body's end a moment behind: reading up to it lets the Agent reuse the connection for the next
   * request. A body that goes on past DRAIN_GRACE_MS is aborted, and so is one whose read was still
   * waiting when the consumer stopped.
   */
  #drain(): void {
    const waiting = this.#takeWaiting();
    if (waiting) {
      waiting.resolve(ENDED);
      this.#connection.close(false);
      return;
    }
    if (this.#ended || this.#failure) {
      this.#connection.close(this.#ended);
      return;
    }
    this.#drainTimer = setTimeout(() => this.#connection.close(false), DRAIN_GRACE_MS);
    this.#drainTimer.unref();
    this.#flow();
  }

  #drained(completed: boolean): void {
    clearTimeout(this.#drainTimer);
    this.#connection.close(completed);
  }
}

function noop(): void {}

/** Node reports a body whose connection closed before its end as `Error: aborted`, which would read as if someone had stopped it. */
function cutShort(error: unknown): unknown {
  return error instanceof Error && error.message === "aborted" ? new Error("closed before the reply ended", { cause: error }) : error;
}

/** An API answers JSON or a stream; an HTML page is a proxy, a login portal or a wrong baseUrl. */
function isHtml(headers: ResponseHeaders): boolean {
  return headers.get("content-type")?.toLowerCase().includes("text/html") ?? false;
}

/** What a failure says when the provider asked for a longer wait than the policy honours. */
export function retryAfterBeyondCapHint(askedMs: number, policy: Pick<RetryPolicy, "maxRetryAfterMs">): string {
  return `the provider asked to wait ${seconds(askedMs)} before retrying, longer than maxRetryAfterMs (${seconds(policy.maxRetryAfterMs)}); try again later, or raise maxRetryAfterMs`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}
