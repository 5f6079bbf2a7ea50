import type { Agent, IncomingMessage, RequestOptions, ClientRequest } from "node:http";
import { urlToHttpOptions } from "node:url";

/** How long an idle kept-alive connection stays open (less, when the server announces a shorter `Keep-Alive: timeout`). */
const IDLE_SOCKET_MS = 5_000;

export interface HttpRequestInit {
  method: string;
  headers: Record<string, string>;
  /** Sent with its `content-length`. */
  body?: string;
  /** Aborting destroys the request and its connection, at any point. */
  signal: AbortSignal;
}

interface Transport {
  request(options: RequestOptions): ClientRequest;
  agent: Agent;
}

/**
 * One transport per protocol, loaded on the first request: node:https alone costs ~6 ms to import,
 * which a process that never calls a provider (`weft --help`) should not pay.
 *
 * Each has one keep-alive Agent for the process, so a run's model calls share their connection. Node
 * unrefs a socket while it is idle in the pool, so an idle connection never keeps the process alive.
 */
const transports = new Map<string, Promise<Transport>>();

function transport(protocol: string): Promise<Transport> {
  let loaded = transports.get(protocol);
  if (!loaded) {
    loaded = protocol === "https:" ? import("node:https").then(keepAlive) : import("node:http").then(keepAlive);
    transports.set(protocol, loaded);
  }
  return loaded;
}

function keepAlive(module: typeof import("node:http") | typeof import("node:https")): Transport {
  return { request: module.request, agent: new module.Agent({ keepAlive: true, timeout: IDLE_SOCKET_MS }) };
}

/**
 * Where each URL points, as node:http takes it: read once. Given a URL, node:http reads it again for
 * every request; the URLs come from provider-fetch's cache, so a provider's URL is read once.
 */
const targets = new WeakMap<URL, RequestOptions>();

function targetOf(url: URL): RequestOptions {
  let target = targets.get(url);
  if (!target) {
    target = urlToHttpOptions(url);
    targets.set(url, target);
  }
  return target;
}

/**
 * Sends one request over node:http or node:https (`url` must be one of the two, and must not change:
 * what it points to is read once) and resolves with the response once its headers arrive, its body
 * not yet read; rejects on a network error or abort.
 */
export async function httpRequest(url: URL, init: HttpRequestInit): Promise<IncomingMessage> {
  const { request, agent } = await transport(url.protocol);
  return new Promise((resolve, reject) => {
    // Encoded once, which also gives its length: a string body is joined to the headers and copied
    // again before it is encoded (a request of 1000 tools, ~250 KB, cost twice the CPU to send).
    const body = init.body === undefined ? undefined : Buffer.from(init.body);
    const headers = body === undefined ? init.headers : { ...init.headers, "content-length": String(body.length) };
    const sent = request({ ...targetOf(url), method: init.method, headers, agent });
    sent.once("response", resolve);
    // Kept for the request's life: a late error (an abort while the body streams) must find a listener.
    sent.on("error", (error) => {
      // A kept-alive connection the server closed as it was being reused: the server hung up before
      // answering, so the request is sent again on a new connection (Node's documented remedy), not
      // counted as a retry. A pool of such connections drains one by one: each failed one is destroyed.
      if (sent.reusedSocket && isConnectionReset(error) && !init.signal.aborted) resolve(httpRequest(url, init));
      else reject(error);
    });
    abortWith(sent, init.signal);
    sent.end(body);
  });
}

/**
 * Aborting `signal` destroys the request and its connection, with the abort's reason as its error.
 * (node:http's `signal` option does the same through its end-of-stream tracking, at several times
 * the cost of one listener.) The listener goes with the request: once a kept-alive request is done,
 * its socket serves the next request, which this signal must not reach.
 */
function abortWith(sent: ClientRequest, signal: AbortSignal): void {
  const abort = () => sent.destroy(signal.reason instanceof Error ? signal.reason : new Error("aborted", { cause: signal.reason }));
  if (signal.aborted) {
    abort();
    return;
  }
  signal.addEventListener("abort", abort, { once: true });
  sent.once("close", () => signal.removeEventListener("abort", abort));
}

/** The errors of a connection that closed under a request: a reset, or a close before any answer. */
function isConnectionReset(error: unknown): boolean {
  return error instanceof Error && "code" in error && (error.code === "ECONNRESET" || error.code === "EPIPE");
}
