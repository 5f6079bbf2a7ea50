import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { Type } from "typebox";
import { createAgent, createKernel } from "@weft/core";
import { defineTool, type Kernel } from "@weft/sdk";
import { scriptedModel, type ScriptedTurn } from "@weft/sdk/testing";
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
