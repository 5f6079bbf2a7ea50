import { SSEClientTransport } from "@modelcontextprotocol/client";
import type { JSONRPCMessage, JSONRPCNotification, JSONRPCRequest, Transport } from "@modelcontextprotocol/client";
import { callHeaders, errorMessage, withCallHeaders } from "@weft/sdk";
import type { FeedbackEvent, McpRequestError, McpRequestInfo } from "@weft/sdk";
import type { ServerTransport } from "./config.js";

/** Where a connection reports the requests it sends. */
export interface RequestReporting {
  emit(event: FeedbackEvent): void;
  /** Whether anyone observes `emit` now: a request sent while nobody does is not followed at all. */
  observed(): boolean;
  /** The trace context of the request's own span, by its `mcp.request` key; empty when nothing traces it. */
  traceHeaders(key: string): Record<string, string>;
}

interface OpenRequest {
  key: string;
  method: string;
  started: number;
}

/** Keys are unique in the process, so spans of two connections (or servers) never meet. */
let lastKey = 0;

/**
 * Reports every request and notification the client sends over `transport` (`mcp.request`, then
 * `mcp.response` when its answer arrives, it is cancelled or the connection closes), and puts the trace
 * context of the request's own span into its `params._meta` (`traceparent`, `tracestate`: the MCP
 * convention, which stdio servers can only get this way) and, over HTTP, into the request's headers.
 * It patches the transport before the client connects. Incoming messages are observed through
 * whatever `onmessage` is set (see `observeIncoming`): the SDK's version probe replaces the handler for
 * the `server/discover` exchange without calling the one it found, so chaining would miss that reply.
 * The SDK keeps an `onclose` it finds and calls it. While nobody observes the reports (and nothing traces,
 * which observes them), a request goes out as it is: its events, key and bookkeeping are never made.
 * `initialize` is always followed, since its answer carries the protocol version later events report.
 */
export function reportRequests(transport: Transport, server: string, endpoint: ServerTransport, reporting: RequestReporting): void {
  const peer = peerOf(transport, endpoint);
  const open = new Map<string | number, OpenRequest>();
  /** Requests the server sent, by their id (a space of its own), until weft answers them. */
  const received = new Map<string | number, OpenRequest>();
  let protocolVersion: string | undefined;

  const finish = (request: OpenRequest, error?: McpRequestError): void => {
    const { sessionId } = transport;
    reporting.emit({
      type: "mcp.response",
      key: request.key,
      server,
      method: request.method,
      durationMs: Date.now() - request.started,
      ...(sessionId ? { sessionId } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
      ...(error ? { error } : {}),
    });
  };

  const send = transport.send.bind(transport);
  /** What must be followed even while nobody observes: `initialize`, and the end of what was followed. */
  const followed = (message: JSONRPCMessage): boolean => {
    if (!("method" in message)) return "id" in message && message.id !== undefined && message.id !== null && received.has(message.id);
    if (message.method === "initialize") return true;
    const requestId = message.method === "notifications/cancelled" ? message.params?.requestId : undefined;
    return (typeof requestId === "string" || typeof requestId === "number") && open.has(requestId);
  };

  const reported = async (message: JSONRPCMessage, options: Parameters<Transport["send"]>[1]): Promise<void> => {
    if (!("method" in message)) {
      const id = "id" in message ? message.id : undefined;
      const answered = id === undefined ? undefined : received.get(id);
      if (answered && id !== undefined) {
        received.delete(id);
        finish(answered, "error" in message ? { type: String(message.error.code), code: message.error.code, message: message.error.message } : undefined);
      }
      return send(message, options);
    }
    const id = "id" in message ? message.id : undefined;
    const params: Record<string, unknown> = message.params ?? {};
    if (message.method === "notifications/cancelled" && (typeof params.requestId === "string" || typeof params.requestId === "number")) {
      const cancelled = open.get(params.requestId);
      open.delete(params.requestId);
      if (cancelled) finish(cancelled, { type: "cancelled", message: typeof params.reason === "string" ? params.reason : "the client cancelled the request" });
    }
    const request: OpenRequest = { key: `${server}#${++lastKey}`, method: message.method, started: Date.now() };
    reporting.emit({ type: "mcp.request", ...requestInfo(request, server, id, params, peer, transport.sessionId, protocolVersion, traceContextOf(callHeaders())) });
    const headers = reporting.traceHeaders(request.key);
    if (id !== undefined) open.set(id, request);
    try {
      await withCallHeaders(headers, () => send(withTraceMeta(message, headers), options));
    } catch (error) {
      if (id === undefined || open.delete(id)) finish(request, { type: "transport_error", message: errorMessage(error) });
      throw error;
    }
    // A notification has no answer: it is done once sent.
    if (id === undefined) finish(request);
  };
  transport.send = (message, options) => (reporting.observed() || followed(message) ? reported(message, options) : send(message, options));

  observeIncoming(transport, (message) => {
    // Unobserved, only the answers of requests being followed matter.
    if (!reporting.observed() && ("method" in message || open.size === 0)) return;
    if ("method" in message && "id" in message) {
      // The server asks weft something (a question, a sampling call): a span of its own, parented on
      // the trace context the server sent, if any.
      const request: OpenRequest = { key: `${server}#${++lastKey}`, method: message.method, started: Date.now() };
      received.set(message.id, request);
      const parent = traceContextOf(message.params?._meta ?? {});
      reporting.emit({ type: "mcp.request", ...requestInfo(request, server, message.id, message.params ?? {}, peer, transport.sessionId, protocolVersion, parent), from: "server" });
      return;
    }
    if (!("id" in message) || "method" in message || message.id === undefined || message.id === null) return;
    const request = open.get(message.id);
    if (!request) return;
    open.delete(message.id);
    if ("error" in message) {
      finish(request, { type: String(message.error.code), code: message.error.code, message: message.error.message });
      return;
    }
    const result: Record<string, unknown> = "result" in message ? message.result : {};
    if (request.method === "initialize" && typeof result.protocolVersion === "string") protocolVersion = result.protocolVersion;
    finish(request, request.method === "tools/call" && result.isError === true ? { type: "tool_error", message: "the tool reported an error" } : undefined);
  });

  transport.onclose = () => {
    for (const request of open.values()) finish(request, { type: "connection_closed", message: "the connection closed before the server answered" });
    for (const request of received.values()) finish(request, { type: "connection_closed", message: "the connection closed before weft answered" });
    open.clear();
    received.clear();
  };
}

function requestInfo(
  request: OpenRequest,
  server: string,
  id: string | number | undefined,
  params: Record<string, unknown>,
  peer: Pick<McpRequestInfo, "transport" | "address" | "port">,
  sessionId: string | undefined,
  protocolVersion: string | undefined,
  parent: McpRequestInfo["parent"],
): McpRequestInfo {
  const { method } = request;
  const target = (method === "tools/call" || method === "prompts/get") && typeof params.name === "string" ? params.name : undefined;
  const uri = method.startsWith("resources/") && typeof params.uri === "string" ? params.uri : undefined;
  return {
    key: request.key,
    server,
    method,
    ...(id !== undefined ? { requestId: String(id) } : {}),
    ...(target !== undefined ? { target } : {}),
    ...(uri !== undefined ? { uri } : {}),
    ...peer,
    ...(sessionId ? { sessionId } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
    ...(parent ? { parent } : {}),
  };
}

/** The W3C trace context in a header set or a `_meta` bag, if there is one. */
function traceContextOf(bag: Readonly<Record<string, unknown>>): McpRequestInfo["parent"] {
  const { traceparent, tracestate } = bag;
  if (typeof traceparent !== "string") return undefined;
  return { traceparent, ...(typeof tracestate === "string" ? { tracestate } : {}) };
}

/** The message with the trace context in `params._meta` (unprefixed keys, as SEP-414 defines them for W3C trace context). */
function withTraceMeta(message: JSONRPCRequest | JSONRPCNotification, headers: Record<string, string>): JSONRPCMessage {
  const { traceparent, tracestate } = headers;
  if (!traceparent) return message;
  return { ...message, params: { ...message.params, _meta: { ...message.params?._meta, traceparent, ...(tracestate ? { tracestate } : {}) } } };
}

function peerOf(transport: Transport, endpoint: ServerTransport): Pick<McpRequestInfo, "transport" | "address" | "port"> {
  if (endpoint.kind === "stdio") return { transport: "stdio" };
  // `http` falls back to legacy SSE: the transport says which one this connection is.
  const url = new URL(endpoint.url);
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  return { transport: transport instanceof SSEClientTransport ? "sse" : "http", address: url.hostname, port };
}

type MessageHandler = NonNullable<Transport["onmessage"]>;

/**
 * Calls `observe` with every message the transport delivers, before whichever handler is set at the
 * time (the client's, the probe's). `onmessage` becomes an accessor that hands out a wrapper of the
 * handler set and unwraps a wrapper set back, so a handler saved and restored is never wrapped twice.
 */
function observeIncoming(transport: Transport, observe: (message: JSONRPCMessage) => void): void {
  const wrappers = new WeakMap<MessageHandler, MessageHandler>();
  const handlers = new WeakMap<MessageHandler, MessageHandler>();
  const wrap = (next: MessageHandler): MessageHandler => {
    let wrapper = wrappers.get(next);
    if (!wrapper) {
      wrapper = (message, extra) => {
        observe(message);
        next(message, extra);
      };
      wrappers.set(next, wrapper);
      handlers.set(wrapper, next);
    }
    return wrapper;
  };
  // The wrapper is made when a handler is set, not looked up for every message delivered.
  let wrapped = transport.onmessage && wrap(transport.onmessage);
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (next: MessageHandler | undefined) => {
      const handler = next && (handlers.get(next) ?? next);
      wrapped = handler && wrap(handler);
    },
  });
}
