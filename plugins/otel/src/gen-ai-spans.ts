import type { Attributes, Context, Span, SpanKind, Tracer, TraceAPI, ContextAPI, SpanStatusCode, createTraceState } from "@opentelemetry/api";
import type { ChatRequest, FeedbackEvent, FeedbackEventOf, HookContext, Stats, ToolSource } from "@weft/sdk";

/** The parts of `@opentelemetry/api` the recorder uses; passed in, since the package is an optional peer. */
export interface OtelApi {
  trace: TraceAPI;
  context: ContextAPI;
  SpanKind: typeof SpanKind;
  SpanStatusCode: typeof SpanStatusCode;
  createTraceState: typeof createTraceState;
}

export interface GenAiSpanOptions {
  /** `gen_ai.agent.name` and the invoke_agent span's name suffix. */
  agentName?: string;
  /** Record message content, tool arguments and results (off by default: they may hold personal data). */
  captureContent?: boolean;
  /** Where a tool came from, for `weft.tool.source`. */
  toolSource?(name: string): ToolSource | undefined;
}

const OPENS_A_SPAN = new Set<FeedbackEvent["type"]>(["model.request", "tool.called", "tool.returned"]);

/** The spans one session has open: its turn, its model call and its tool calls by call id. */
interface SessionSpans {
  turn?: { span: Span; context: Context };
  chat?: { span: Span; text: string };
  readonly tools: Map<string, Span>;
}

/**
 * Turns weft's feedback events into spans of the OpenTelemetry GenAI semantic conventions:
 * `invoke_agent` for a turn (opened by its first model request, closed by `turn.finished`), `chat` for
 * each model call and `execute_tool` for each tool call, both children of the turn; compaction and
 * suspensions are events on the turn span. Spans are parented explicitly, so no context manager is
 * needed; a turn started inside an application span nests under it when one is registered. Each
 * session (the event's hook context) has its own spans, so concurrent sessions on one kernel never
 * parent each other's calls. MCP requests (the MCP plugin's `mcp.request` / `mcp.response`) become
 * CLIENT spans of the MCP conventions, under the `execute_tool` they were sent for; a request the
 * server sends weft (a question) a SERVER span.
 */
export class GenAiSpans {
  readonly #sessions = new Map<string, SessionSpans>();
  /** MCP client spans in flight, by their request's key. */
  readonly #requests = new Map<string, Span>();

  constructor(
    private readonly otel: OtelApi,
    private readonly tracer: Tracer,
    private readonly options: GenAiSpanOptions = {},
  ) {}

  observe(event: FeedbackEvent, context?: Pick<HookContext, "sessionId">): void {
    // MCP requests belong to no session: their parent comes with them.
    if (event.type === "mcp.request") {
      this.#mcpRequest(event);
      return;
    }
    if (event.type === "mcp.response") {
      this.#mcpResponse(event);
      return;
    }
    const id = context?.sessionId ?? "";
    // Only a span's start makes a session's record, so events of idle sessions hold no memory.
    if (!this.#sessions.has(id) && !OPENS_A_SPAN.has(event.type)) return;
    const session = this.#session(id);
    switch (event.type) {
      case "model.request":
        this.#chatStarted(session, event);
        return;
      case "text.delta":
        if (session.chat && this.options.captureContent) session.chat.text += event.delta;
        return;
      case "model.response":
        this.#chatFinished(session, event);
        return;
      case "tool.called":
        return void this.#toolSpan(session, event.callId, event.name, event.arguments);
      case "tool.returned":
        this.#toolFinished(session, event);
        return;
      case "tool.pending":
        session.turn?.span.addEvent("weft.suspension", {
          "weft.suspension.kind": event.suspension.kind,
          "gen_ai.tool.name": event.suspension.toolName,
          "gen_ai.tool.call.id": event.suspension.callId,
        });
        return;
      case "compaction.finished":
        session.turn?.span.addEvent("weft.compaction", { "weft.compaction.tokens_before": event.before, "weft.compaction.tokens_after": event.after });
        return;
      case "compaction.failed":
        session.turn?.span.addEvent("weft.compaction.failed", { "weft.compaction.reason": event.reason });
        return;
      case "turn.finished":
        this.#turnFinished(session, event);
        this.#sessions.delete(id);
        return;
    }
  }

  /**
   * The W3C `traceparent` (and `tracestate`) of a running tool call's span, for the requests the tool
   * makes (an A2A call), so the remote side's spans are children of `execute_tool`.
   */
  traceHeaders(sessionId: string | undefined, callId: string): Record<string, string> {
    return w3cHeaders(this.#sessions.get(sessionId ?? "")?.tools.get(callId));
  }

  /** The trace context of an MCP request's client span (its `mcp.request` key), so the server's span is its child. */
  requestHeaders(key: string): Record<string, string> {
    return w3cHeaders(this.#requests.get(key));
  }

  /**
   * An MCP client span per the OpenTelemetry MCP conventions: `{method} {target}`, CLIENT, a child of
   * the span the request was made in (a tool call's `execute_tool`), or of the ambient context for
   * requests of no call (initialize, tools/list).
   */
  #mcpRequest(event: FeedbackEventOf<"mcp.request">): void {
    const remote = event.transport !== "stdio";
    const tool = event.method === "tools/call" && event.target !== undefined;
    const attributes: Attributes = {
      "mcp.method.name": event.method,
      "weft.mcp.server": event.server,
      "network.transport": remote ? "tcp" : "pipe",
      ...(remote ? { "network.protocol.name": "http" } : {}),
      ...(event.address !== undefined ? { "server.address": event.address } : {}),
      ...(event.port !== undefined ? { "server.port": event.port } : {}),
      ...(event.requestId !== undefined ? { "jsonrpc.request.id": event.requestId } : {}),
      ...(event.sessionId !== undefined ? { "mcp.session.id": event.sessionId } : {}),
      ...(event.protocolVersion !== undefined ? { "mcp.protocol.version": event.protocolVersion } : {}),
      ...(tool ? { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": event.target } : {}),
      ...(event.method === "prompts/get" && event.target !== undefined ? { "gen_ai.prompt.name": event.target } : {}),
      ...(event.uri !== undefined ? { "mcp.resource.uri": event.uri } : {}),
    };
    const name = event.target !== undefined ? `${event.method} ${event.target}` : event.method;
    // A request the server sends weft is, by the conventions, a SERVER span on the client's side.
    const kind = event.from === "server" ? this.otel.SpanKind.SERVER : this.otel.SpanKind.CLIENT;
    const span = this.tracer.startSpan(name, { kind, attributes }, this.#parentContext(event.parent));
    this.#requests.set(event.key, span);
  }

  #mcpResponse(event: FeedbackEventOf<"mcp.response">): void {
    const span = this.#requests.get(event.key);
    if (!span) return;
    this.#requests.delete(event.key);
    // The session and the negotiated version may come only with the answer (initialize).
    if (event.sessionId !== undefined) span.setAttribute("mcp.session.id", event.sessionId);
    if (event.protocolVersion !== undefined) span.setAttribute("mcp.protocol.version", event.protocolVersion);
    if (event.error) {
      if (event.error.code !== undefined) span.setAttribute("rpc.response.status_code", String(event.error.code));
      this.#fail(span, event.error.type, event.error.message);
    }
    span.end();
  }

  /** The context a W3C `traceparent` names, on top of the ambient one. */
  #parentContext(parent: { traceparent: string; tracestate?: string } | undefined): Context {
    const active = this.otel.context.active();
    if (!parent) return active;
    const match = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(parent.traceparent);
    if (!match?.[1] || !match[2] || !match[3]) return active;
    return this.otel.trace.setSpanContext(active, {
      traceId: match[1],
      spanId: match[2],
      traceFlags: Number.parseInt(match[3], 16),
      isRemote: false,
      ...(parent.tracestate ? { traceState: this.otel.createTraceState(parent.tracestate) } : {}),
    });
  }

  /** With content capture on: the request's messages, as the model is about to receive them. */
  recordRequest(request: ChatRequest, context?: Pick<HookContext, "sessionId">): void {
    const chat = this.#sessions.get(context?.sessionId ?? "")?.chat;
    if (!chat || !this.options.captureContent) return;
    chat.span.setAttribute("gen_ai.input.messages", JSON.stringify(request.messages.map(messageParts)));
  }

  #session(id: string): SessionSpans {
    let session = this.#sessions.get(id);
    if (!session) {
      session = { tools: new Map() };
      this.#sessions.set(id, session);
    }
    return session;
  }

  #turnContext(session: SessionSpans): Context {
    if (!session.turn) {
      const { agentName } = this.options;
      const span = this.tracer.startSpan(
        agentName ? `invoke_agent ${agentName}` : "invoke_agent",
        {
          kind: this.otel.SpanKind.INTERNAL,
          attributes: { "gen_ai.operation.name": "invoke_agent", ...(agentName ? { "gen_ai.agent.name": agentName } : {}) },
        },
        this.otel.context.active(),
      );
      session.turn = { span, context: this.otel.trace.setSpan(this.otel.context.active(), span) };
    }
    return session.turn.context;
  }

  #chatStarted(session: SessionSpans, event: FeedbackEventOf<"model.request">): void {
    // A model call that threw left its span open: it ends here, marked as failed.
    this.#endChat(session, "error");
    const { provider, model } = splitRef(event.model);
    const span = this.tracer.startSpan(
      `chat ${model}`,
      {
        kind: this.otel.SpanKind.CLIENT,
        attributes: { "gen_ai.operation.name": "chat", "gen_ai.provider.name": provider, "gen_ai.request.model": model },
      },
      this.#turnContext(session),
    );
    session.chat = { span, text: "" };
  }

  #chatFinished(session: SessionSpans, event: FeedbackEventOf<"model.response">): void {
    const { chat } = session;
    if (!chat) return;
    const { stats } = event;
    chat.span.setAttributes({
      "gen_ai.response.model": splitRef(event.model).model,
      "gen_ai.usage.input_tokens": stats.promptTokens,
      "gen_ai.usage.output_tokens": stats.outputTokens,
      "gen_ai.usage.cache_read.input_tokens": stats.cacheReadTokens,
      "gen_ai.usage.cache_creation.input_tokens": stats.cacheWriteTokens,
      ...cost(stats),
      ...(event.stopReason !== undefined ? { "gen_ai.response.finish_reasons": [event.stopReason] } : {}),
    });
    if (this.options.captureContent) {
      const output = { role: "assistant", parts: chat.text ? [{ type: "text", content: chat.text }] : [], finish_reason: event.stopReason ?? "" };
      chat.span.setAttribute("gen_ai.output.messages", JSON.stringify([output]));
    }
    this.#endChat(session);
  }

  #endChat(session: SessionSpans, errorType?: string): void {
    if (!session.chat) return;
    if (errorType) this.#fail(session.chat.span, errorType, "the model call ended without a reply");
    session.chat.span.end();
    session.chat = undefined;
  }

  #toolSpan(session: SessionSpans, callId: string, name: string, args: Record<string, unknown> | undefined, startTime?: number): Span {
    const source = this.options.toolSource?.(name);
    const span = this.tracer.startSpan(
      `execute_tool ${name}`,
      {
        kind: this.otel.SpanKind.INTERNAL,
        ...(startTime !== undefined ? { startTime } : {}),
        attributes: {
          "gen_ai.operation.name": "execute_tool",
          "gen_ai.tool.name": name,
          "gen_ai.tool.call.id": callId,
          "gen_ai.tool.type": "function",
          ...(source ? { "weft.tool.source": `${source.kind}:${source.id}` } : {}),
          ...(this.options.captureContent && args ? { "gen_ai.tool.call.arguments": JSON.stringify(args) } : {}),
        },
      },
      session.turn?.context ?? this.otel.context.active(),
    );
    session.tools.set(callId, span);
    return span;
  }

  #toolFinished(session: SessionSpans, event: FeedbackEventOf<"tool.returned">): void {
    // A call refused before it ran (unknown tool, invalid arguments) reports only its return.
    const span = session.tools.get(event.callId) ?? this.#toolSpan(session, event.callId, event.name, undefined, Date.now() - event.elapsedMs);
    session.tools.delete(event.callId);
    if (this.options.captureContent) span.setAttribute("gen_ai.tool.call.result", event.result.output);
    if (event.isError) {
      const metadata = event.result.metadata ?? {};
      this.#fail(span, metadata.timedOut ? "timeout" : metadata.aborted ? "aborted" : "tool_error", event.result.output);
    }
    span.end();
  }

  #turnFinished(session: SessionSpans, event: FeedbackEventOf<"turn.finished">): void {
    this.#endChat(session, "error");
    const { turn } = session;
    if (!turn) return;
    const { usage } = event.metadata;
    turn.span.setAttributes({
      "gen_ai.usage.input_tokens": usage.promptTokens,
      "gen_ai.usage.output_tokens": usage.outputTokens,
      "gen_ai.usage.cache_read.input_tokens": usage.cacheReadTokens,
      "gen_ai.usage.cache_creation.input_tokens": usage.cacheWriteTokens,
      ...cost(usage),
      "weft.turn.status": event.status,
      "weft.turn.iterations": event.metadata.iterations,
    });
    if (event.status === "aborted") this.#fail(turn.span, "aborted", "the turn was aborted");
    turn.span.end();
    session.turn = undefined;
  }

  #fail(span: Span, errorType: string, message: string): void {
    span.setAttribute("error.type", errorType);
    span.setStatus({ code: this.otel.SpanStatusCode.ERROR, message });
  }
}

/** A span's W3C `traceparent` (and `tracestate`); empty without a span. */
function w3cHeaders(span: Span | undefined): Record<string, string> {
  if (!span) return {};
  const { traceId, spanId, traceFlags, traceState } = span.spanContext();
  const headers: Record<string, string> = { traceparent: `00-${traceId}-${spanId}-${(traceFlags & 0xff).toString(16).padStart(2, "0")}` };
  const state = traceState?.serialize();
  if (state) headers.tracestate = state;
  return headers;
}

/**
 * The GenAI conventions define no cost attribute, so it is weft's own, in the conventions' namespace
 * style; present only when the provider reported a cost or a price table gave one.
 */
function cost(stats: Stats): Record<string, number> {
  return stats.costUsd !== undefined ? { "weft.usage.cost_usd": stats.costUsd } : {};
}

function splitRef(ref: string): { provider: string; model: string } {
  const slash = ref.indexOf("/");
  return slash > 0 ? { provider: ref.slice(0, slash), model: ref.slice(slash + 1) } : { provider: "unknown", model: ref };
}

/** A transcript message in the conventions' `{role, parts}` shape. */
function messageParts(message: ChatRequest["messages"][number]): Record<string, unknown> {
  switch (message.role) {
    case "tool":
      return { role: "tool", parts: [{ type: "tool_call_response", id: message.toolCallId, response: message.content }] };
    case "assistant":
      return {
        role: "assistant",
        parts: [
          ...(message.content ? [{ type: "text", content: message.content }] : []),
          ...(message.toolCalls ?? []).map((call) => ({ type: "tool_call", id: call.id, name: call.name, arguments: call.arguments })),
        ],
      };
    default:
      return { role: message.role, parts: [{ type: "text", content: message.content }] };
  }
}
