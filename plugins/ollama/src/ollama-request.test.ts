import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import { parse } from "yaml";
import type { ChatRequest, Effort } from "@weft/sdk";
import { ollamaRequestBody, thinkFor, type OllamaCall } from "./ollama-request.js";

// Ollama's OpenAPI document (fixtures/providers/ollama): every body we build must pass its ChatRequest schema.
const openapi = parse(readFileSync(new URL("../../../fixtures/providers/ollama/openapi.yaml", import.meta.url), "utf8"));
const chatRequest = Compile({ $defs: JSON.parse(JSON.stringify(openapi.components.schemas).replaceAll("#/components/schemas/", "#/$defs/")), $ref: "#/$defs/ChatRequest" });
const schemaErrors = (body: unknown) => [...chatRequest.Errors(body)].map((error) => `${error.instancePath} ${error.message}`);

const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };

/** A system prompt, a tool, thinking, parallel tool calls (one with a server id, one without) and results. */
const conversation: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Weather in Paris and Oslo?" },
    {
      role: "assistant",
      content: "",
      reasoning: [
        { provider: "ollama", text: "Two cities, two calls." },
        { provider: "anthropic", text: "not ours", signature: "s" },
      ],
      toolCalls: [
        { id: "call_abc", name: "get_weather", arguments: { city: "Paris" } },
        { id: "ollama_call_0123456789abcdef", name: "get_weather", arguments: { city: "Oslo" } },
      ],
    },
    { role: "tool", toolCallId: "call_abc", toolName: "get_weather", content: "18°C" },
    { role: "tool", toolCallId: "ollama_call_0123456789abcdef", toolName: "get_weather", content: "weather service down", isError: true },
    { role: "user", content: "Thanks." },
  ],
  tools: [weather],
  temperature: 0.1,
};

const call: OllamaCall = { model: "qwen3:8b", effort: "medium", maxTokens: 512, numCtx: 32768, keepAlive: "10m" };

describe("ollama request body", () => {
  it("maps a whole conversation to the exact /api/chat body, which Ollama's schema accepts", () => {
    const body = ollamaRequestBody(conversation, call);
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        model: "qwen3:8b",
        messages: [
          { role: "system", content: "You are terse." },
          { role: "user", content: "Weather in Paris and Oslo?" },
          {
            role: "assistant",
            content: "",
            thinking: "Two cities, two calls.",
            tool_calls: [{ id: "call_abc", function: { name: "get_weather", arguments: { city: "Paris" } } }, { function: { name: "get_weather", arguments: { city: "Oslo" } } }],
          },
          { role: "tool", tool_name: "get_weather", content: "18°C", tool_call_id: "call_abc" },
          { role: "tool", tool_name: "get_weather", content: "weather service down" },
          { role: "user", content: "Thanks." },
        ],
        tools: [{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weather.inputSchema } }],
        think: "medium",
        options: { num_predict: 512, temperature: 0.1, num_ctx: 32768 },
        keep_alive: "10m",
        stream: true,
      }),
    );
    expect(schemaErrors(body)).toEqual([]);
    expect(schemaErrors({ ...body, messages: [{ role: "robot", content: "x" }] })).not.toEqual([]); // the schema does bite
  });

  it("maps the effort ladder onto think, never touching num_predict", () => {
    const levels: Effort[] = ["off", "low", "medium", "high", "max"];
    expect(levels.map(thinkFor)).toEqual([false, "low", "medium", "high", "high"]);
    for (const effort of levels) {
      const body = ollamaRequestBody({ messages: [{ role: "user", content: "Hi" }], maxTokens: 64 }, { model: "m", effort });
      expect(body).toEqual({ model: "m", messages: [{ role: "user", content: "Hi" }], think: thinkFor(effort), options: { num_predict: 64 }, stream: true });
      expect(schemaErrors(body)).toEqual([]);
    }
  });

  it("maps a frozen tool list once: the tools of a session's calls are shared, in a plain list per body", () => {
    const tools = Object.freeze([Object.freeze({ ...weather })]);
    const ask = () => ollamaRequestBody({ messages: [{ role: "user", content: "Paris?" }], tools }, call).tools as unknown[];
    const first = ask();
    const second = ask();
    expect(second[0]).toBe(first[0]);
    expect(second).not.toBe(first);
    expect(first).toEqual([{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weather.inputSchema } }]);
  });
});
