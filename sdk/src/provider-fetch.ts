import { DEFAULT_RETRY_POLICY, isRetryableStatus, retryDelay, type RetryPolicy } from "./retry-policy.js";
import { brokenStreamError, httpStatusError, idleTimeoutError, networkError, parseJsonChunk, readProviderFaultText } from "./provider-errors.js";

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
  /** The body as it arrives. Stopping early (break) closes the connection. Read it once. */
  chunks(): AsyncGenerator<Uint8Array>;
  /** The whole body parsed as JSON; a body that is not JSON is a ProviderError. */
  json(): Promise<unknown>;
}

/**
 * POSTs (or GETs) to a provider with retries: 429, 500, 502, 503, 504, 529 and network errors are
 * retried with exponential backoff and jitter, honouring `Retry-After` (capped at `maxDelayMs`); other
 * statuses fail at once with a ProviderError carrying the provider's own message and type.
 */
export async function providerFetch(request: ProviderRequest, options: ProviderFetchOptions): Promise<ProviderResponse> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY_POLICY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
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
        await sleep(retryDelay(attempt, policy), signal);
        continue;
      }
      throw connection.idled ? idleTimeoutError(options.provider, idleTimeoutMs, attempt) : networkError(options.provider, request.url, error, attempt);
    }
    if (response.ok) return connection.respond(response);
    if (isRetryableStatus(response.status) && attempt < policy.maxRetries) {
      await response.body?.cancel().catch(() => undefined);
      connection.close();
      await sleep(retryDelay(attempt, policy, response.headers), signal);
      continue;
    }
    let text = "";
    try {
      text = await connection.text(response);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      // The error body is a nicety: the status alone still makes the error.
    }
    const hint = response.status === 401 ? options.credentialHint : undefined;
    throw httpStatusError(options.provider, response.status, readProviderFaultText(text), attempt, hint);
  }
}

/**
 * One attempt's connection: an AbortController fed by the caller's signal and by an idle timer that
 * runs only while we wait on the network (not while the consumer works on a chunk).
 */
class Connection {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout;
  readonly #unlink: () => void;
  #waiting = false;
  idled = false;

  constructor(
    readonly provider: string,
    readonly idleTimeoutMs: number,
    readonly retries: number,
    readonly outer?: AbortSignal,
  ) {
    this.#timer = setTimeout(() => this.#idle(), idleTimeoutMs);
    this.#timer.unref();
    const forward = () => this.#controller.abort(outer?.reason);
    outer?.addEventListener("abort", forward, { once: true });
    this.#unlink = () => outer?.removeEventListener("abort", forward);
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  async waitFor<T>(promise: Promise<T>): Promise<T> {
    this.#waiting = true;
    this.#timer.refresh();
    try {
      return await promise;
    } finally {
      this.#waiting = false;
    }
  }

  close(): void {
    clearTimeout(this.#timer);
    this.#unlink();
    if (!this.#controller.signal.aborted) this.#controller.abort();
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
    };
  }

  async *#chunks(response: Response): AsyncGenerator<Uint8Array> {
    if (!response.body) {
      this.close();
      return;
    }
    const reader = response.body.getReader();
    try {
      for (;;) {
        let result: Awaited<ReturnType<typeof reader.read>>;
        try {
          result = await this.waitFor(reader.read());
        } catch (error) {
          if (this.outer?.aborted) throw this.outer.reason;
          if (this.idled) throw idleTimeoutError(this.provider, this.idleTimeoutMs, this.retries);
          throw brokenStreamError(this.provider, error, this.retries);
        }
        if (result.done) return;
        yield result.value;
      }
    } finally {
      // Also reached when the consumer stops early: the connection must not linger.
      this.close();
    }
  }

  #idle(): void {
    if (!this.#waiting) return;
    this.idled = true;
    this.#controller.abort(idleTimeoutError(this.provider, this.idleTimeoutMs, this.retries));
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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
