/**
 * W3C trace context (`traceparent`, `tracestate`) for the requests a tool makes on behalf of one
 * call, so a remote agent's or server's spans join the caller's trace. A tracing plugin publishes it
 * as the `traceContext` service (`@weft/otel` does); a tool source that makes HTTP requests adds the
 * headers when the service is there.
 */
export interface TraceContext {
  /** The headers for requests made by the call `callId` of `sessionId`; empty when it is not traced. */
  headers(call: { sessionId?: string; callId: string }): Record<string, string>;
  /**
   * The headers for one protocol request, by the `key` of its `mcp.request` event: the request's own
   * client span, so the server's span is its child (sent as MCP `_meta.traceparent` and, over HTTP, as headers).
   */
  requestHeaders(key: string): Record<string, string>;
}
