import { DEFAULT_RETRY_POLICY, abortableSleep, backoffDelay, isRetryableStatus, parseRetryAfter, retryDelay, type RetryPolicy } from "./retry-policy.js";
import { brokenStreamError, htmlPageError, httpStatusError, idleTimeoutError, networkError, notAnObjectError, parseJsonChunk, readProviderFaultText } from "./provider-errors.js";
import { isRecord } from "./is-record.js";

/** The default idle timeout: how long a request may go without a byte before it is dropped. */
export const DEFAULT_IDLE_TIMEOUT_MS = 120_000;

export interface ProviderFetchOptions extends Partial<RetryPolicy> {
  /** The provider id, for error messages. */
  provider: string;
  /** Fail when no byte arrives for this long, waiting for the headers or for the next body chunk. */
  idleTimeoutMs?: number;
  /** What to tell the user on a 401, e.g. "check ANTHROPIC_API_KEY". */
  credentialHint?: string;
}

export interface ProviderRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
  /** Aborting ends the request at once, also while it waits to retry or streams its body. */
  signal?: AbortSignal;
}

/** A successful (2xx) response whose body is read with the idle timeout and abort still in force. */
export interface ProviderResponse {
  readonly status: number;
  readonly headers: Headers;
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
 * provider's own message and type. A 2xx HTML page is an error that says what came back.
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
  const init = {
    method: request.method ?? (request.body === undefined ? "GET" : "POST"),
    headers: { ...(request.body === undefined ? {} : { "content-type": "application/json" }), ...request.headers },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
  };
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const connection = new Connection(options.provider, idleTimeoutMs, attempt, signal);
    let response: Response;
    try {
      response = await connection.waitFor(fetch(request.url, { ...init, signal: connection.signal }));
    } catch (error) {
      connection.close();
      if (signal?.aborted) throw signal.reason;
      if (attempt < policy.maxRetries) {
        await abortableSleep(backoffDelay(attempt, policy), signal);
        continue;
      }
      throw connection.idled ? idleTimeoutError(options.provider, idleTimeoutMs, attempt) : networkError(options.provider, request.url, error, attempt);
    }
    if (response.ok && !isHtml(response.headers)) return connection.respond(response);
    const retryable = response.ok ? false : isRetryableStatus(response.status);
    const delay = retryable ? retryDelay(attempt, policy, response.headers) : undefined;
    if (delay !== undefined && attempt < policy.maxRetries) {
      await response.body?.cancel().catch(() => undefined);
      connection.close();
      await abortableSleep(delay, signal);
      continue;
    }
    let text = "";
    try {
      text = await connection.text(response);
    } catch {
      if (signal?.aborted) throw signal.reason;
      // The error body is a nicety: the status alone still makes the error.
    }
    if (response.ok) throw htmlPageError(options.provider, response.status, text, attempt);
    const asked = retryable && attempt < policy.maxRetries ? parseRetryAfter(response.headers) : undefined;
    const hint =
      asked !== undefined
        ? retryAfterBeyondCapHint(asked, policy)
        : response.status === 401
          ? options.credentialHint
          : undefined;
    throw httpStatusError(options.provider, response.status, readProviderFaultText(text), attempt, hint);
  }
}

/**
 * One attempt's connection: an AbortController fed by the caller's signal and by an idle timer that
 * counts only while we wait on the network (not while the consumer works on a chunk).
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

  /** Ends the attempt; `completed`: the body was read to its end, so there is no request left to abort. */
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
    return brokenStreamError(this.provider, error, this.retries);
  }

  async text(response: Response): Promise<string> {
    const decoder = new TextDecoder();
    let text = "";
    for await (const chunk of this.#chunks(response)) text += decoder.decode(chunk, { stream: true });
    return text + decoder.decode();
  }

  respond(response: Response): ProviderResponse {
    const connection = this;
    return {
      status: response.status,
      headers: response.headers,
      retries: this.retries,
      chunks: () => connection.#chunks(response),
      async json() {
        return parseJsonChunk(connection.provider, await connection.text(response), connection.retries);
      },
      async jsonObject() {
        const text = await connection.text(response);
        const value = parseJsonChunk(connection.provider, text, connection.retries);
        if (!isRecord(value)) throw notAnObjectError(connection.provider, text, connection.retries);
        return value;
      },
    };
  }

  #chunks(response: Response): AsyncGenerator<Uint8Array> {
    if (response.body) return new BodyChunks(this, response.body.getReader());
    this.close(true);
    return new BodyChunks(this, undefined);
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

type BodyRead = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;
const ENDED: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });
/** How long a body may go on after its consumer stopped before the request is aborted. */
const DRAIN_GRACE_MS = 100;

/**
 * A response body's chunks, read straight off the stream's reader: an async generator's own steps
 * (and an await on every value it yields) cost more than the reads themselves on a fast connection.
 */
class BodyChunks implements AsyncGenerator<Uint8Array, undefined> {
  readonly #connection: Connection;
  readonly #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  #finished: boolean;
  #reading = false;

  constructor(connection: Connection, reader: ReadableStreamDefaultReader<Uint8Array> | undefined) {
    this.#connection = connection;
    this.#reader = reader;
    this.#finished = reader === undefined;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (this.#finished || !this.#reader) return Promise.resolve(ENDED);
    this.#reading = true;
    this.#connection.beginWait();
    return this.#reader.read().then(this.#onRead, this.#onFail);
  }

  readonly #onRead = (result: BodyRead): IteratorResult<Uint8Array, undefined> => {
    this.#reading = false;
    this.#connection.endWait();
    if (!result.done) return { done: false, value: result.value };
    this.#finish(true);
    return ENDED;
  };

  readonly #onFail = (error: unknown): never => {
    this.#reading = false;
    this.#connection.endWait();
    this.#finish(false);
    throw this.#connection.readError(error);
  };

  /** Stopping early (break): the consumer is free at once; the connection is closed (or finishes) behind it. */
  return(): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#finished) {
      this.#finished = true;
      void this.#drain();
    }
    return Promise.resolve(ENDED);
  }

  throw(error: unknown): Promise<IteratorResult<Uint8Array, undefined>> {
    if (!this.#finished) {
      this.#finished = true;
      this.#connection.close(false);
    }
    return Promise.reject(error);
  }

  #finish(completed: boolean): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#connection.close(completed);
  }

  /**
   * A consumer stops early mostly at the protocol's last event (`[DONE]`, `message_stop`), with the
   * body's end a moment behind: reading up to it spares aborting a request that is in fact complete
   * (an exception and an event dispatch a call). A body that goes on past DRAIN_GRACE_MS is aborted.
   */
  async #drain(): Promise<void> {
    const reader = this.#reader;
    if (this.#reading || !reader) {
      this.#connection.close(false);
      return;
    }
    const timer = setTimeout(() => this.#connection.close(false), DRAIN_GRACE_MS);
    try {
      while (!(await reader.read()).done);
      this.#connection.close(true);
    } catch {
      this.#connection.close(false);
    } finally {
      clearTimeout(timer);
    }
  }
}

function noop(): void {}

/** An API answers JSON or a stream; an HTML page is a proxy, a login portal or a wrong baseUrl. */
function isHtml(headers: Headers): boolean {
  return headers.get("content-type")?.toLowerCase().includes("text/html") ?? false;
}

/** What a failure says when the provider asked for a longer wait than the policy honours. */
export function retryAfterBeyondCapHint(askedMs: number, policy: Pick<RetryPolicy, "maxRetryAfterMs">): string {
  return `the provider asked to wait ${seconds(askedMs)} before retrying, longer than maxRetryAfterMs (${seconds(policy.maxRetryAfterMs)}); try again later, or raise maxRetryAfterMs`;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

