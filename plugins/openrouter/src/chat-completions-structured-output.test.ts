import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import { Type } from "typebox";
import { resolveOutput, type ChatRequest, type StreamEvent } from "@weft/sdk";
import { useScriptedServer } from "@weft/sdk/testing";
import { chatCompletionsRequest, type ChatCompletionsCall } from "./chat-completions-request.js";
import { createCompatibleModel, createOpenRouterModel } from "./chat-completions-model.js";

// OpenRouter's published request schema: every body built here must pass it.
const openapi = JSON.parse(readFileSync(new URL("../../../fixtures/providers/openrouter/chat-completions-schemas.json", import.meta.url), "utf8"));
const openRouterRequest = Compile({ $defs: JSON.parse(JSON.stringify(openapi.schemas).replaceAll("#/components/schemas/", "#/$defs/")), $ref: "#/$defs/ChatRequest" });
const schemaErrors = (body: unknown) => [...openRouterRequest.Errors(body)].map((error) => `${error.instancePath} ${error.message}`);

const Weather = Type.Object({ city: Type.String({ minLength: 2 }), celsius: Type.Number({ minimum: -90 }), note: Type.Optional(Type.String()) });
const output = resolveOutput({ schema: Weather, name: "weather", description: "Today's weather" });
const ask: ChatRequest = { messages: [{ role: "user", content: "Weather in Paris?" }] };
const openrouter: ChatCompletionsCall = { provider: "openrouter", model: "openai/gpt-4o", effort: "off", effortStyle: "openrouter", maxTokensField: "max_tokens", output };
const listed = { reasoning: false, images: true, documents: true, structuredOutput: true };

/** Strict mode's form of Weather: every property required, the optional one nullable, limits it keeps kept. */
const strict = {
  type: "object",
  properties: { city: { type: "string", description: "(minLength: 2)" }, celsius: { type: "number", minimum: -90 }, note: { type: ["string", "null"] } },
  required: ["city", "celsius", "note"],
  additionalProperties: false,
};

describe("chat completions structured output request", () => {
  it("OpenRouter: response_format json_schema strict with the adapted schema, routed only to hosts that honour it", () => {
    const { body, notices } = chatCompletionsRequest(ask, { ...openrouter, capabilities: listed });
    expect(body.response_format).toEqual({ type: "json_schema", json_schema: { name: "weather", description: "Today's weather", strict: true, schema: strict } });
    expect(body.provider).toEqual({ require_parameters: true });
    expect(notices).toEqual([{ code: "output-schema-adapted", message: "the output schema was adapted to OpenAI strict mode; moved into descriptions: /properties/city minLength" }]);
    expect(schemaErrors(body)).toEqual([]);
  });

  it("a model that does not list structured_outputs gets the schema in a system message instead", () => {
    const { body, notices } = chatCompletionsRequest(
      { messages: [{ role: "system", content: "Be terse." }, ...ask.messages] },
      { ...openrouter, capabilities: { ...listed, structuredOutput: false } },
    );
    expect(body.response_format).toBeUndefined();
    expect(body.messages).toEqual([
      { role: "system", content: "Be terse." },
      {
        role: "system",
        content: `Give your final answer as one JSON object (Today's weather) that follows this JSON Schema, with no other text:\n${JSON.stringify(output.jsonSchema)}`,
      },
      { role: "user", content: "Weather in Paris?" },
    ]);
    expect(notices.map((notice) => notice.code)).toEqual(["output-instructed"]);
    expect(schemaErrors(body)).toEqual([]);
  });

  it("an OpenAI-compatible endpoint gets json_schema only once its settings say it takes it, and no OpenRouter routing field", () => {
    const compatible: ChatCompletionsCall = { ...openrouter, provider: "openai-compatible", effortStyle: "reasoning_effort" };
    const stated = chatCompletionsRequest(ask, { ...compatible, capabilities: listed }).body;
    expect(stated.response_format).toMatchObject({ type: "json_schema", json_schema: { strict: true } });
    expect(stated.provider).toBeUndefined();
    const unstated = chatCompletionsRequest(ask, { ...compatible, capabilities: { ...listed, structuredOutput: false } }).body;
    expect(unstated.response_format).toBeUndefined();
  });

  it("sampling: each parameter only where the model lists it; top_k never to an OpenAI-compatible endpoint", () => {
    const sampling = { ...ask, temperature: 0.4, topP: 0.9, topK: 20 };
    const reasoningModel = { ...listed, samplingParameters: ["top_p"] };
    const { body, notices } = chatCompletionsRequest(sampling, { ...openrouter, output: undefined, capabilities: reasoningModel } as ChatCompletionsCall);
    expect([body.temperature, body.top_p, body.top_k]).toEqual([undefined, 0.9, undefined]);
    expect(notices.map((notice) => notice.message)).toEqual([
      "temperature 0.4 was not sent: the model does not list it among its parameters",
      "top_k 20 was not sent: the model does not list it among its parameters",
    ]);
    expect(schemaErrors(body)).toEqual([]);
    const unknown = chatCompletionsRequest(sampling, { provider: "openrouter", model: "x/y", effort: "off", effortStyle: "openrouter", maxTokensField: "max_tokens" }).body;
    expect([unknown.temperature, unknown.top_p, unknown.top_k]).toEqual([0.4, 0.9, 20]);
    const compatible = chatCompletionsRequest(sampling, { provider: "openai-compatible", model: "m", effort: "off", effortStyle: "reasoning_effort", maxTokensField: "max_tokens" });
    expect([compatible.body.temperature, compatible.body.top_p, compatible.body.top_k]).toEqual([0.4, 0.9, undefined]);
    expect(compatible.notices.map((notice) => notice.code)).toEqual(["top-k-dropped"]);
  });
});

describe("chat completions structured output over HTTP", () => {
  const server = useScriptedServer(beforeEach, afterEach);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: "gen-1", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
  const usage = { id: "gen-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } };
  const reply = (...pieces: string[]) => ({
    headers: { "content-type": "text/event-stream" },
    body: [chunk({ role: "assistant", content: "" }), ...pieces.map((content) => chunk({ content })), chunk({}, "stop"), usage, "[DONE]"].map(
      (payload) => `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`,
    ),
  });

  it("OpenRouter: looks the model up, sends strict json_schema, streams partial objects and drops strict mode's nulls", async () => {
    const gpt4o = { id: "openai/gpt-4o", supported_parameters: ["tools", "temperature", "response_format", "structured_outputs"], pricing: { prompt: "0.0000025", completion: "0.00001" } };
    server.route("GET", "/api/v1/models", { headers: { "content-type": "application/json" }, body: JSON.stringify({ data: [gpt4o] }) });
    server.reply(reply('{"city":"Par', 'is","celsius":', '18,"note":null}'));
    const model = createOpenRouterModel({ provider: "openrouter", model: "openai/gpt-4o", apiKey: "sk-or-test", baseUrl: `${server.url}/api/v1/`, retryBaseDelayMs: 1 });
    const events: StreamEvent[] = [];
    for await (const event of model.stream({ ...ask, output: { schema: Weather, name: "weather" } })) events.push(event);
    expect(server.requests[0]?.json().response_format).toEqual({ type: "json_schema", json_schema: { name: "weather", strict: true, schema: strict } });
    expect(events.filter((event) => event.type === "output").map((event) => event.type === "output" && event.partial)).toEqual([
      { city: "Par" },
      { city: "Paris" },
      { city: "Paris", celsius: 18, note: null },
    ]);
    const done = events.at(-1);
    expect(done?.type === "done" && done.message.output).toEqual({ city: "Paris", celsius: 18 });
  });

  it("openai-compatible without structured output: the stated schema, a fenced reply read, validated", async () => {
    server.reply(reply("```json\n", '{"city": "Paris", "celsius": 18}', "\n```"));
    const model = createCompatibleModel({ provider: "openai-compatible", model: "local", baseUrl: server.url, retryBaseDelayMs: 1 });
    const answer = await model.chat({ ...ask, output: { schema: Weather } });
    expect(answer.output).toEqual({ city: "Paris", celsius: 18 });
    expect(server.requests[0]?.json().messages[0].content).toMatch(/^Give your final answer as one JSON object that follows this JSON Schema/);
  });
});
