import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as otelApi from "@opentelemetry/api";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Type } from "typebox";
import { createAgent, createKernel } from "@weft/core";
import mcpPlugin from "@weft/plugin-mcp";
import { defineTool, type Kernel, type WaitFor } from "@weft/sdk";
import { scriptedModel, type ScriptedTurn } from "@weft/sdk/testing";
import { GenAiSpans } from "./gen-ai-spans.js";
import { otelPlugin } from "./otel-plugin.js";

const weather = defineTool({
  name: "weather",
  description: "Weather for a city",
  input: Type.Object({ city: Type.String() }),
  execute: ({ city }) => (city === "Atlantis" ? { output: "no such city", isError: true } : { output: `${city}: 12 C` }),
});

let exporter: InMemorySpanExporter;
let provider: BasicTracerProvider;
let kernel: Kernel;
beforeEach(() => {
  exporter = new InMemorySpanExporter();
  provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
});
afterEach(async () => {
  await kernel.close();
  await provider.shutdown();
});

async function run(turns: ScriptedTurn[], prompts: string[], captureContent = false) {
  kernel = createKernel();
  await kernel.use(otelPlugin({ tracer: provider.getTracer("test"), agentName: "helper", captureContent }));
  kernel.hooks.tools.tap((registrar) => void registrar.add(weather));
  await kernel.ready();
  const agent = createAgent({ kernel, model: scriptedModel(turns, { provider: "scripted", model: "m1", contextWindow: 100_000 }) });
  for (const prompt of prompts) await agent.process(prompt);
  return exporter.getFinishedSpans();
}

const byStart = (a: ReadableSpan, b: ReadableSpan) => (a.startTime[0] - b.startTime[0]) * 1e9 + a.startTime[1] - b.startTime[1];

/** The span tree as `name` lines indented under their parents, in start order. */
function tree(spans: readonly ReadableSpan[]): string[] {
  const children = (parent: string | undefined) =>
    spans.filter((span) => span.parentSpanContext?.spanId === parent).sort(byStart);
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    for (const span of children(parent)) {
      lines.push(`${"  ".repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines;
}

const twoTurns: ScriptedTurn[] = [
  { toolCalls: [{ id: "call_1", name: "weather", arguments: { city: "Oslo" } }], stats: { promptTokens: 50, outputTokens: 10, cacheReadTokens: 40 }, stopReason: "tool_use" },
  { text: "12 C in Oslo.", stats: { promptTokens: 70, outputTokens: 6, cacheWriteTokens: 5 }, stopReason: "end_turn" },
  { text: "You're welcome.", stats: { promptTokens: 80, outputTokens: 4 }, stopReason: "end_turn" },
];

describe("GenAI spans of a two-turn tool-using run", () => {
  it("pins the span tree: invoke_agent per turn, chat per model call, execute_tool per call", async () => {
    const spans = await run(twoTurns, ["Weather in Oslo?", "Thanks!"]);
    expect(tree(spans)).toEqual([
      "invoke_agent helper",
      "  chat m1",
      "  execute_tool weather",
      "  chat m1",
      "invoke_agent helper",
      "  chat m1",
    ]);
    const [firstChat, tool, secondChat] = spans.filter((span) => span.name !== "invoke_agent helper").sort(byStart);
    expect(firstChat?.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "scripted",
      "gen_ai.request.model": "m1",
      "gen_ai.response.model": "m1",
      "gen_ai.response.finish_reasons": ["tool_use"],
      "gen_ai.usage.input_tokens": 50,
      "gen_ai.usage.output_tokens": 10,
      "gen_ai.usage.cache_read.input_tokens": 40,
      "gen_ai.usage.cache_creation.input_tokens": 0,
    });
    expect(firstChat?.kind).toBe(2); // CLIENT
    expect(secondChat?.attributes["gen_ai.usage.cache_creation.input_tokens"]).toBe(5);
    expect(tool?.attributes).toEqual({
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "weather",
      "gen_ai.tool.call.id": "call_1",
      "gen_ai.tool.type": "function",
      "weft.tool.source": "pack:app",
    });
    const firstTurn = spans.find((span) => span.name === "invoke_agent helper" && span.attributes["weft.turn.iterations"] === 2);
    expect(firstTurn?.attributes).toEqual({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.agent.name": "helper",
      "gen_ai.usage.input_tokens": 120,
      "gen_ai.usage.output_tokens": 16,
      "gen_ai.usage.cache_read.input_tokens": 40,
      "gen_ai.usage.cache_creation.input_tokens": 5,
      "weft.turn.status": "done",
      "weft.turn.iterations": 2,
    });
    // Content is off by default.
    expect(spans.some((span) => Object.keys(span.attributes).some((key) => key.includes("messages") || key.includes("arguments")))).toBe(false);
  });

  it("marks a failing tool with error.type and an error status the model's text explains", async () => {
    const spans = await run(
      [{ toolCalls: [{ id: "call_9", name: "weather", arguments: { city: "Atlantis" } }] }, { text: "No such city." }],
      ["Weather in Atlantis?"],
    );
    const tool = spans.find((span) => span.name === "execute_tool weather");
    expect(tool?.attributes["error.type"]).toBe("tool_error");
    expect(tool?.status).toEqual({ code: 2, message: "no such city" });
  });

  it("records messages, arguments and results only when content capture is on", async () => {
    const spans = await run(twoTurns.slice(0, 2), ["Weather in Oslo?"], true);
    const chats = spans.filter((span) => span.name === "chat m1");
    expect(JSON.parse(String(chats[0]?.attributes["gen_ai.input.messages"]))).toEqual([{ role: "user", parts: [{ type: "text", content: "Weather in Oslo?" }] }]);
    expect(JSON.parse(String(chats[1]?.attributes["gen_ai.output.messages"]))).toEqual([
      { role: "assistant", parts: [{ type: "text", content: "12 C in Oslo." }], finish_reason: "end_turn" },
    ]);
    const tool = spans.find((span) => span.name === "execute_tool weather");
    expect(tool?.attributes["gen_ai.tool.call.arguments"]).toBe('{"city":"Oslo"}');
    expect(tool?.attributes["gen_ai.tool.call.result"]).toBe("Oslo: 12 C");
  });
  it("keeps two concurrent sessions on one kernel apart, each call under its own turn", async () => {
    kernel = createKernel();
    await kernel.use(otelPlugin({ tracer: provider.getTracer("test"), agentName: "helper" }));
    // Each session's tool waits until both are running, so their rounds truly overlap.
    let arrived = 0;
    let release: () => void = () => undefined;
    const bothRunning = new Promise<void>((resolve) => {
      release = resolve;
    });
    const rendezvous = defineTool({
      name: "rendezvous",
      description: "Waits for the other session",
      input: Type.Object({ who: Type.String() }),
      execute: async ({ who }) => {
        if (++arrived === 2) release();
        await bothRunning;
        return { output: who };
      },
    });
    kernel.hooks.tools.tap((registrar) => void registrar.add(rendezvous));
    await kernel.ready();
    // The same call id in both sessions: spans are keyed per session, not by call id alone.
    const script = (who: string, costUsd: number): ScriptedTurn[] => [
      { toolCalls: [{ id: "call_1", name: "rendezvous", arguments: { who } }], stats: { promptTokens: 10, outputTokens: 2, costUsd } },
      { text: `done ${who}`, stats: { promptTokens: 20, outputTokens: 3, costUsd } },
    ];
    const agent = (who: string, costUsd: number) =>
      createAgent({ kernel, model: scriptedModel(script(who, costUsd), { provider: "scripted", model: `m-${who}`, contextWindow: 100_000 }) });
    await Promise.all([agent("a", 0.25).process("go a"), agent("b", 1.5).process("go b")]);
    const spans = exporter.getFinishedSpans();
    const turns = spans.filter((span) => span.name === "invoke_agent helper");
    expect(turns).toHaveLength(2);
    const childrenOf = (turn: ReadableSpan) =>
      spans
        .filter((span) => span.parentSpanContext?.spanId === turn.spanContext().spanId)
        .sort(byStart)
        .map((span) => span.name);
    expect(turns.map(childrenOf).sort()).toEqual([
      ["chat m-a", "execute_tool rendezvous", "chat m-a"],
      ["chat m-b", "execute_tool rendezvous", "chat m-b"],
    ]);
    // Cost: each model call's, and the turn's sum.
    const costOf = (name: string) => spans.filter((span) => span.name === name).map((span) => span.attributes["weft.usage.cost_usd"]);
    expect(costOf("chat m-a")).toEqual([0.25, 0.25]);
    expect(turns.map((span) => span.attributes["weft.usage.cost_usd"]).sort()).toEqual([0.5, 3]);
  });
});

/** What the recording stdio server received and sent, in order. */
interface Recorded {
  direction: "received" | "sent";
  message: { id?: number; method?: string; params?: { name?: string; _meta?: Record<string, unknown> }; result?: Record<string, unknown> };
}

describe("MCP client spans of a run with a stdio MCP server", () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), "weft-otel-mcp-"));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  /** The two-turn run of `twoTurns` with the weather tool served by a real stdio MCP server (`rec`). */
  async function runWithServer(turns: ScriptedTurn[], prompts: string[], traced = true, waitFor?: WaitFor) {
    const recordFile = join(folder, "record.jsonl");
    kernel = createKernel(waitFor ? { waitFor } : {});
    if (traced) await kernel.use(otelPlugin({ tracer: provider.getTracer("test"), agentName: "helper" }));
    const server = { command: process.execPath, args: [new URL("./test-fixtures/recording-mcp-server.mjs", import.meta.url).pathname], env: { RECORD_FILE: recordFile } };
    await kernel.use(mcpPlugin, { config: { mcpServers: { rec: server } } });
    await kernel.ready();
    const agent = createAgent({ kernel, model: scriptedModel(turns, { provider: "scripted", model: "m1", contextWindow: 100_000 }), ...(waitFor ? { waitFor } : {}) });
    for (const prompt of prompts) await agent.process(prompt);
    // Taken before the close: the SDK (1.32.2) never drops a request's abort listener, so closing the
    // kernel (its start signal) sends notifications/cancelled for initialize and tools/list, long answered.
    const spans = [...exporter.getFinishedSpans()];
    await kernel.close();
    const recorded = readFileSync(recordFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Recorded)
      .filter((entry) => entry.message.method !== "notifications/cancelled");
    return { spans, recorded };
  }

  const oneCall = (name: string, city: string): ScriptedTurn[] => [
    { toolCalls: [{ id: "call_1", name: `rec__${name}`, arguments: { city } }], stats: { promptTokens: 50, outputTokens: 10 } },
    { text: "Done.", stats: { promptTokens: 70, outputTokens: 6 } },
  ];

  it("pins the span tree: each request a CLIENT span, tools/call under its execute_tool", async () => {
    // The run of the first test, its tool served by the MCP server.
    const turns: ScriptedTurn[] = [{ toolCalls: [{ id: "call_1", name: "rec__weather", arguments: { city: "Oslo" } }], stopReason: "tool_use" }, ...twoTurns.slice(1)];
    const { spans, recorded } = await runWithServer(turns, ["Weather in Oslo?", "Thanks!"]);
    expect(tree(spans)).toEqual([
      "server/discover",
      "initialize",
      "notifications/initialized",
      "tools/list",
      "invoke_agent helper",
      "  chat m1",
      "  execute_tool rec__weather",
      "    tools/call weather",
      "  chat m1",
      "invoke_agent helper",
      "  chat m1",
    ]);
    const negotiated = recorded.find((entry) => entry.direction === "sent" && entry.message.id === 0)?.message.result?.protocolVersion;
    expect(typeof negotiated).toBe("string");
    const call = spans.find((span) => span.name === "tools/call weather");
    expect(call?.kind).toBe(2); // CLIENT
    expect(call?.status).toEqual({ code: 0 });
    expect(call?.attributes).toEqual({
      "mcp.method.name": "tools/call",
      "weft.mcp.server": "rec",
      "network.transport": "pipe",
      "jsonrpc.request.id": "weft-call:1", // weft numbers its tools/call requests itself (plugins/mcp McpClient)
      "mcp.protocol.version": negotiated,
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": "weather",
    });
    // The initialize span learns the negotiated version from the answer.
    expect(spans.find((span) => span.name === "initialize")?.attributes).toEqual({
      "mcp.method.name": "initialize",
      "weft.mcp.server": "rec",
      "network.transport": "pipe",
      "jsonrpc.request.id": "0",
      "mcp.protocol.version": negotiated,
    });
  });

  it("sends each request's own span as params._meta.traceparent, which the stdio server receives", async () => {
    const { spans, recorded } = await runWithServer(oneCall("weather", "Oslo"), ["Weather in Oslo?"]);
    const received = recorded.filter((entry) => entry.direction === "received").map((entry) => entry.message);
    const traceparentOf = (name: string) => {
      const { traceId, spanId } = spans.find((span) => span.name === name)?.spanContext() ?? {};
      return `00-${traceId}-${spanId}-01`;
    };
    expect(received.map((message) => [message.method, message.params?._meta?.traceparent])).toEqual([
      // The v2 client first offers 2026-07-28 (`server/discover`); this 2025-era server refuses it and is spoken to in 2025-11-25.
      ["server/discover", traceparentOf("server/discover")],
      ["initialize", traceparentOf("initialize")],
      ["notifications/initialized", traceparentOf("notifications/initialized")],
      ["tools/list", traceparentOf("tools/list")],
      ["tools/call", traceparentOf("tools/call weather")],
    ]);
    // The tool call keeps its progress token beside the trace context, and its span is in the run's trace.
    const call = received.find((message) => message.method === "tools/call");
    expect(Object.keys(call?.params?._meta ?? {}).sort()).toEqual(["progressToken", "traceparent"]);
    const tool = spans.find((span) => span.name === "execute_tool rec__weather");
    expect(spans.find((span) => span.name === "tools/call weather")?.parentSpanContext?.spanId).toBe(tool?.spanContext().spanId);
  });

  it("sends no trace context when nothing traces the run", async () => {
    const { recorded } = await runWithServer(oneCall("weather", "Oslo"), ["Weather in Oslo?"], false);
    const call = recorded.find((entry) => entry.direction === "received" && entry.message.method === "tools/call");
    expect(Object.keys(call?.message.params?._meta ?? {})).toEqual(["progressToken"]);
  });

  it("reports a question the server asks weft as a SERVER span that lasts until weft answers", async () => {
    const waitFor: WaitFor = async () => ({ action: "accept", content: { city: "Oslo" } });
    const { spans, recorded } = await runWithServer(oneCall("ask", ""), ["Ask me."], true, waitFor);
    expect(recorded.find((entry) => entry.direction === "received" && entry.message.id === 0 && entry.message.result)?.message.result).toEqual({ action: "accept", content: { city: "Oslo" } });
    const question = spans.find((span) => span.name === "elicitation/create");
    expect(question?.kind).toBe(1); // SERVER
    expect(question?.status).toEqual({ code: 0 });
    expect(question?.attributes).toMatchObject({ "mcp.method.name": "elicitation/create", "jsonrpc.request.id": "0", "weft.mcp.server": "rec" });
    expect(spans.find((span) => span.name === "tools/call ask")?.status).toEqual({ code: 0 });
  });

  it("marks a tool's error result as tool_error and a JSON-RPC error with its code", async () => {
    const failed = await runWithServer(oneCall("fail", "Atlantis"), ["Weather in Atlantis?"]);
    const fail = failed.spans.find((span) => span.name === "tools/call fail");
    expect(fail?.attributes["error.type"]).toBe("tool_error");
    expect(fail?.status).toEqual({ code: 2, message: "the tool reported an error" });
    exporter.reset();
    const thrown = await runWithServer(oneCall("boom", "Oslo"), ["Weather in Oslo?"]);
    const boom = thrown.spans.find((span) => span.name === "tools/call boom");
    expect(boom?.attributes).toMatchObject({ "error.type": "-32603", "rpc.response.status_code": "-32603" });
    expect(boom?.status).toEqual({ code: 2, message: "exploded on Oslo" });
  });
});

describe("an MCP client span's parent", () => {
  it("is the span its event's W3C trace context names, with its tracestate", async () => {
    kernel = createKernel(); // closed by afterEach, as in every test here
    const spans = new GenAiSpans(otelApi, provider.getTracer("test"));
    const parent = { traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", tracestate: "vendor=abc" };
    spans.observe({ type: "mcp.request", key: "s#1", server: "s", method: "ping", requestId: "4", transport: "stdio", parent });
    expect(spans.requestHeaders("s#1").tracestate).toBe("vendor=abc");
    spans.observe({ type: "mcp.response", key: "s#1", server: "s", method: "ping", durationMs: 1 });
    const [ping] = exporter.getFinishedSpans();
    expect(ping?.spanContext().traceId).toBe("0af7651916cd43dd8448eb211c80319c");
    expect(ping?.parentSpanContext?.spanId).toBe("b7ad6b7169203331");
    // Ended: its key gives no trace context any more.
    expect(spans.requestHeaders("s#1")).toEqual({});
  });
});
