import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { A2A_PROTOCOL_VERSION, Role, type AgentCard } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAgent, createKernel } from "@weft/core";
import { otelPlugin } from "@weft/otel";
import a2aPlugin from "@weft/plugin-a2a";
import mcpPlugin from "@weft/plugin-mcp";
import { scriptedModel } from "@weft/sdk/testing";

// A real @a2a-js/sdk 1.3.0 agent on 127.0.0.1 that answers every message and records the headers of
// every request; weft calls it as a tool while @weft/otel traces the run. The MCP case has its own server.
const requests: { path: string; headers: IncomingHttpHeaders }[] = [];
let close: () => Promise<void>;
let cardUrl: string;

beforeAll(async () => {
  const app = express();
  app.use((req, _res, next) => {
    requests.push({ path: req.path, headers: req.headers });
    next();
  });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: "Trace Agent",
    description: "Answers",
    supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "ask", name: "Ask", description: "Answers", tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
  const executor: AgentExecutor = {
    execute: async (context, bus) => {
      const parts = [{ content: { $case: "text" as const, value: "traced" }, metadata: undefined, filename: "", mediaType: "text/plain" }];
      bus.publish(AgentEvent.message({ messageId: randomUUID(), contextId: context.contextId, taskId: "", role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] }));
      bus.finished();
    },
    cancelTask: async () => {},
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  cardUrl = `${origin}/.well-known/agent-card.json`;
  close = () => new Promise((resolve) => server.close(() => resolve()));
});

afterAll(() => close?.());

describe("W3C trace context across A2A and MCP calls", () => {
  it("sends the execute_tool span as the traceparent of the agent's requests, so the remote spans join the trace", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const kernel = createKernel();
    try {
      await kernel.use(otelPlugin({ tracer: provider.getTracer("test") }));
      await kernel.use(a2aPlugin, { agents: [{ card: cardUrl }] });
      await kernel.ready();
      const model = scriptedModel([{ toolCalls: [{ id: "call_1", name: "Trace_Agent__ask", arguments: { task: "hi" } }] }, { text: "done" }]);
      const agent = createAgent({ kernel, model });
      await agent.process("ask the agent");
      const tool = exporter.getFinishedSpans().find((span) => span.name === "execute_tool Trace_Agent__ask");
      const { traceId, spanId } = tool?.spanContext() ?? {};
      const calls = requests.filter((request) => request.path === "/a2a/jsonrpc");
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.map((request) => request.headers.traceparent)).toEqual(calls.map(() => `00-${traceId}-${spanId}-01`));
      // The card fetch belongs to no tool call: it carries none.
      expect(requests.filter((request) => request.path !== "/a2a/jsonrpc").map((request) => request.headers.traceparent)).toEqual([undefined]);
    } finally {
      await kernel.close();
      await provider.shutdown();
    }
  });

  it("sends each MCP request's client span as its traceparent, in the HTTP headers and in params._meta", async () => {
    // A real MCP server (the official SDK's, Streamable HTTP with a session) that records each request's headers and `_meta`.
    const seen: { method: string; traceparent: string | undefined; meta: unknown }[] = [];
    const server = new Server({ name: "traced", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [{ name: "echo", description: "Echo", inputSchema: { type: "object", properties: {} } }] }));
    server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: "text", text: "echoed" }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => "session-7", enableJsonResponse: true });
    await server.connect(transport);
    const http = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body: unknown = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      const message = (typeof body === "object" && body !== null ? body : {}) as { method?: string; params?: { _meta?: unknown } };
      seen.push({ method: message.method ?? req.method ?? "", traceparent: req.headers.traceparent as string | undefined, meta: message.params?._meta });
      await transport.handleRequest(req, res, body);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const port = (http.address() as AddressInfo).port;
    const url = `http://127.0.0.1:${port}/mcp`;
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const kernel = createKernel();
    try {
      await kernel.use(otelPlugin({ tracer: provider.getTracer("test") }));
      await kernel.use(mcpPlugin, { config: { mcpServers: { traced: { url } } } });
      await kernel.ready();
      const name = kernel.tools.list().find((tool) => tool.name.endsWith("echo"))?.name ?? "echo";
      const agent = createAgent({ kernel, model: scriptedModel([{ toolCalls: [{ id: "call_1", name, arguments: {} }] }, { text: "done" }]) });
      await agent.process("echo it");
      const spans = exporter.getFinishedSpans();
      const traceparentOf = (spanName: string) => {
        const { traceId, spanId } = spans.find((span) => span.name === spanName)?.spanContext() ?? {};
        return `00-${traceId}-${spanId}-01`;
      };
      // The MCP conventions: the client span is the server span's parent, whatever the transport.
      // Requests with no JSON-RPC body (the SSE GET, the closing DELETE) are named by their HTTP method.
      const posts = seen.filter((request) => !["GET", "POST", "DELETE"].includes(request.method));
      expect(posts.map((request) => [request.method, request.traceparent])).toEqual([
        // The v2 client first offers 2026-07-28; this 2025-era server refuses it and is spoken to in 2025-11-25.
        ["server/discover", traceparentOf("server/discover")],
        ["initialize", traceparentOf("initialize")],
        ["notifications/initialized", traceparentOf("notifications/initialized")],
        ["tools/list", traceparentOf("tools/list")],
        ["tools/call", traceparentOf("tools/call echo")],
      ]);
      expect(posts.find((request) => request.method === "tools/call")?.meta).toMatchObject({ traceparent: traceparentOf("tools/call echo") });
      const call = spans.find((span) => span.name === "tools/call echo");
      const tool = spans.find((span) => span.name === `execute_tool ${name}`);
      expect(call?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
      expect(call?.attributes).toMatchObject({
        "network.transport": "tcp",
        "network.protocol.name": "http",
        "server.address": "127.0.0.1",
        "server.port": port,
        "weft.mcp.server": "traced",
        "mcp.session.id": "session-7",
      });
      // The session id comes with initialize's answer: its span has it too.
      expect(spans.find((span) => span.name === "initialize")?.attributes["mcp.session.id"]).toBe("session-7");
    } finally {
      await kernel.close();
      await provider.shutdown();
      await transport.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    }
  });
});
