import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { resolveOutput, type ChatRequest, type StreamEvent } from "@weft/sdk";
import { useScriptedServer } from "@weft/sdk/testing";
import { anthropicRequest } from "./anthropic-request.js";
import { createAnthropicModel } from "./anthropic-model.js";
import { anthropicPricing } from "./anthropic-prices.js";

const Weather = Type.Object({ city: Type.String({ minLength: 2 }), celsius: Type.Number({ minimum: -90 }), note: Type.Optional(Type.String()) });
const output = resolveOutput({ schema: Weather, name: "weather" });
const ask: ChatRequest = { messages: [{ role: "user", content: "Weather in Paris?" }] };
const base = { effort: "off" as const, maxTokens: 1024, promptCaching: false, output };

/** The schema as Anthropic's structured outputs take it: limits described, additionalProperties false. */
const adapted = {
  type: "object",
  properties: { city: { type: "string", description: "(minLength: 2)" }, celsius: { type: "number", description: "(minimum: -90)" }, note: { type: "string" } },
  required: ["city", "celsius"],
  additionalProperties: false,
};

describe("anthropic structured output request", () => {
  it("sends output_config.format where the model has structured outputs, beside thinking", () => {
    const { body, notices } = anthropicRequest(ask, { ...base, model: "claude-sonnet-4-5", effort: "medium" });
    expect(body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 9216,
      messages: [{ role: "user", content: [{ type: "text", text: "Weather in Paris?" }] }],
      thinking: { type: "enabled", budget_tokens: 8192 },
      output_config: { format: { type: "json_schema", schema: adapted } },
      stream: true,
    });
    expect(notices).toEqual([{ code: "output-schema-adapted", message: "the output schema was adapted to Anthropic structured outputs; moved into descriptions: /properties/city minLength, /properties/celsius minimum" }]);
  });

  it("merges format and effort into one output_config on adaptive models", () => {
    const { body } = anthropicRequest(ask, { ...base, model: "claude-opus-4-6", effort: "high" });
    expect(body.output_config).toEqual({ effort: "high", format: { type: "json_schema", schema: adapted } });
  });

  it("forces an answer tool on models without structured outputs: tool_choice tool alone, any beside other tools", () => {
    const answerTool = {
      name: "weather",
      description: "Give your final answer by calling this tool. Its input is the answer.",
      input_schema: output.jsonSchema,
    };
    const alone = anthropicRequest(ask, { ...base, model: "claude-sonnet-4-20250514" }).body;
    expect(alone.tools).toEqual([answerTool]);
    expect(alone.tool_choice).toEqual({ type: "tool", name: "weather" });
    expect(alone.output_config).toBeUndefined();
    const search = { name: "search", description: "Search the web", inputSchema: { type: "object", properties: { q: { type: "string" } } } };
    const beside = anthropicRequest({ ...ask, tools: [search] }, { ...base, model: "claude-sonnet-4-20250514" }).body;
    expect(beside.tools?.map((tool) => tool.name)).toEqual(["search", "weather"]);
    expect(beside.tool_choice).toEqual({ type: "any" });
  });

  it("with thinking on asks (tool_choice auto) rather than forces, which Anthropic refuses, and says so", () => {
    const { body, notices } = anthropicRequest(ask, { ...base, model: "claude-3-7-sonnet-20250219", effort: "low" });
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
    expect(body.tool_choice).toEqual({ type: "auto" });
    expect(notices.map((notice) => notice.code)).toEqual(["output-tool-auto"]);
  });
});

describe("anthropic sampling parameters", () => {
  const call = { effort: "off" as const, maxTokens: 1024, promptCaching: false };
  it("sends temperature, top_p and top_k where the model takes them all", () => {
    const { body, notices } = anthropicRequest({ ...ask, temperature: 0.5, topP: 0.9, topK: 40 }, { ...call, model: "claude-3-5-haiku-20241022" });
    expect([body.temperature, body.top_p, body.top_k, notices]).toEqual([0.5, 0.9, 40, []]);
  });

  it("sends only temperature to models that take one of temperature and top_p", () => {
    const { body, notices } = anthropicRequest({ ...ask, temperature: 0.5, topP: 0.9 }, { ...call, model: "claude-sonnet-4-5" });
    expect([body.temperature, body.top_p]).toEqual([0.5, undefined]);
    expect(notices).toEqual([{ code: "top-p-dropped", message: "top_p 0.9 was not sent: claude-sonnet-4-5 takes temperature or top_p, not both, and temperature was given" }]);
    expect(anthropicRequest({ ...ask, topP: 0.9 }, { ...call, model: "claude-sonnet-4-5" }).body.top_p).toBe(0.9);
  });

  it("with thinking: no temperature or top_k, top_p only from 0.95 to 1", () => {
    const thinking = { ...call, model: "claude-sonnet-4-5", effort: "low" as const };
    const low = anthropicRequest({ ...ask, temperature: 0.2, topK: 5, topP: 0.5 }, thinking);
    expect([low.body.temperature, low.body.top_k, low.body.top_p]).toEqual([undefined, undefined, undefined]);
    expect(low.notices.map((notice) => notice.message)).toEqual([
      "temperature 0.2 was not sent: Anthropic does not take it with thinking on",
      "top_k 5 was not sent: Anthropic does not take it with thinking on",
      "top_p 0.5 was not sent: with thinking on Anthropic takes top_p only from 0.95 to 1",
    ]);
    expect(anthropicRequest({ ...ask, topP: 0.97 }, thinking).body.top_p).toBe(0.97);
  });
});

describe("anthropic structured output over HTTP", () => {
  const server = useScriptedServer(beforeEach, afterEach);
  const sse = (events: Record<string, unknown>[]) => ({
    headers: { "content-type": "text/event-stream" },
    body: events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`),
  });
  const textReply = (...pieces: string[]) =>
    sse([
      { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      ...pieces.map((text) => ({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } })),
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 7 } },
      { type: "message_stop" },
    ]);
  const model = (name: string) => {
    // No Models API here: the family table answers.
    server.route("GET", `/v1/models/${name}`, { status: 404, body: "{}" });
    return createAnthropicModel({ provider: "anthropic", model: name, apiKey: "sk-ant-test", baseUrl: server.url, retryBaseDelayMs: 1 });
  };

  it("streams partial objects, returns the value, runs the repair round on an invalid reply, and prices both", async () => {
    server.reply(textReply('{"city": "P', 'aris", "celsius": "mild"}'), textReply('{"city": "Paris",', ' "celsius": 19}'));
    const events: StreamEvent[] = [];
    for await (const event of model("claude-sonnet-4-5").stream({ ...ask, output: { schema: Weather, name: "weather" } })) events.push(event);
    expect(events.filter((event) => event.type === "output").map((event) => event.type === "output" && event.partial)).toEqual([
      { city: "P" },
      { city: "Paris", celsius: "mild" },
      { city: "Paris" },
      { city: "Paris", celsius: 19 },
    ]);
    const repair = server.requests[1]?.json().messages;
    expect(repair.slice(-2)).toEqual([
      { role: "assistant", content: [{ type: "text", text: '{"city": "Paris", "celsius": "mild"}' }] },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: "Your reply does not match the required JSON schema:\n- /celsius: must be number\nReply again with only the corrected JSON object, nothing else.",
            cache_control: { type: "ephemeral" },
          },
        ],
      },
    ]);
    const done = events.at(-1);
    expect(done?.type === "done" && done.message.output).toEqual({ city: "Paris", celsius: 19 });
    // Sonnet at $3 / $15 per million, two replies of 10 in and 7 out.
    expect(done?.type === "done" && done.message.stats?.costUsd).toBeCloseTo((2 * (10 * 3 + 7 * 15)) / 1e6, 12);
  });

  it("reads the recorded forced-tool reply (anthropic-json-tool) as the answer on a model without structured outputs", async () => {
    const recording = readFileSync(new URL("../../../fixtures/providers/anthropic/anthropic-json-tool.1.sse", import.meta.url), "utf8");
    server.reply({ headers: { "content-type": "text/event-stream" }, body: recording });
    const Elements = Type.Object({ elements: Type.Array(Type.Object({ location: Type.String(), temperature: Type.Number(), condition: Type.String() })) });
    const reply = await model("claude-sonnet-4-20250514").chat({ ...ask, output: { schema: Elements, name: "json" } });
    expect(reply.output).toEqual({ elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] });
    expect(reply.toolCalls).toBeUndefined();
    expect(reply.content).toBe('{"elements":[{"location":"San Francisco","temperature":58,"condition":"sunny"}]}');
    expect(server.requests[0]?.json().tool_choice).toEqual({ type: "tool", name: "json" });
  });
});

describe("anthropic prices", () => {
  it("prices by family with cache reads at 0.1x and writes at 1.25x input; an unknown model has none", () => {
    expect(anthropicPricing("claude-opus-4-6")).toEqual({ input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 });
    expect(anthropicPricing("claude-opus-4-1-20250805")).toMatchObject({ input: 15, output: 75 });
    expect(anthropicPricing("claude-haiku-4-5-20251001")).toMatchObject({ input: 1, output: 5 });
    expect(anthropicPricing("claude-3-5-haiku-20241022")).toMatchObject({ input: 0.8, output: 4 });
    expect(anthropicPricing("claude-sonnet-4-5")).toMatchObject({ input: 3, output: 15 });
    expect(anthropicPricing("my-proxy-model")).toBeUndefined();
  });
});
