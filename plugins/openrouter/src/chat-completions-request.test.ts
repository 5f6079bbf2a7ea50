import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { Compile } from "typebox/compile";
import type { ChatRequest, Effort } from "@weft/sdk";
import { chatCompletionsBody, effortFields, type ChatCompletionsCall } from "./chat-completions-request.js";

// OpenRouter's published request schema (fixtures/providers/openrouter): every body we build must pass it.
const openapi = JSON.parse(readFileSync(new URL("../../../fixtures/providers/openrouter/chat-completions-schemas.json", import.meta.url), "utf8"));
const openRouterRequest = Compile({ $defs: JSON.parse(JSON.stringify(openapi.schemas).replaceAll("#/components/schemas/", "#/$defs/")), $ref: "#/$defs/ChatRequest" });
const schemaErrors = (body: unknown) => [...openRouterRequest.Errors(body)].map((error) => `${error.instancePath} ${error.message}`);

const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const time = { name: "get_time", description: "Local time in a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } };

/** A system prompt, tools, reasoning to replay, parallel tool calls and their results (one failed). */
const conversation: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "Weather and time in Paris?" },
    {
      role: "assistant",
      content: "",
      reasoning: [
        { provider: "openrouter", text: "Two tools.", details: [{ type: "reasoning.text", text: "Two tools.", signature: "sig", id: "r1", format: "anthropic-claude-v1", index: 0 }] },
        { provider: "anthropic", text: "not ours", signature: "s" },
        { provider: "openai-compatible", text: "no replay data" },
      ],
      toolCalls: [
        { id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "call_2", name: "get_time", arguments: {} },
      ],
    },
    { role: "tool", toolCallId: "call_1", toolName: "get_weather", content: "18°C, cloudy" },
    { role: "tool", toolCallId: "call_2", toolName: "get_time", content: "time service down", isError: true },
    { role: "assistant", content: "It is 18°C; the time is unknown." },
    { role: "user", content: "Thanks." },
  ],
  tools: [weather, time],
  temperature: 0.3,
};

const openrouter: ChatCompletionsCall = { provider: "openrouter", model: "anthropic/claude-sonnet-4.5", effort: "medium", effortStyle: "openrouter", maxTokensField: "max_tokens" };

describe("chat completions request body", () => {
  it("maps a whole conversation to the exact OpenRouter body, which OpenRouter's schema accepts", () => {
    const body = chatCompletionsBody(conversation, { ...openrouter, maxTokens: 4096 });
    expect(JSON.stringify(body)).toBe(
      JSON.stringify({
        model: "anthropic/claude-sonnet-4.5",
        messages: [
          { role: "system", content: "You are terse." },
          { role: "user", content: "Weather and time in Paris?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
              { id: "call_2", type: "function", function: { name: "get_time", arguments: "{}" } },
            ],
            reasoning_details: [{ type: "reasoning.text", text: "Two tools.", signature: "sig", id: "r1", format: "anthropic-claude-v1", index: 0 }],
          },
          { role: "tool", tool_call_id: "call_1", content: "18°C, cloudy" },
          { role: "tool", tool_call_id: "call_2", content: "time service down" },
          { role: "assistant", content: "It is 18°C; the time is unknown." },
          { role: "user", content: "Thanks." },
        ],
        tools: [
          { type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weather.inputSchema } },
          { type: "function", function: { name: "get_time", description: "Local time in a city", parameters: time.inputSchema } },
        ],
        max_tokens: 4096,
        temperature: 0.3,
        reasoning: { effort: "medium" },
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    expect(schemaErrors(body)).toEqual([]);
    expect(schemaErrors({ ...body, messages: [] })).not.toEqual([]); // the schema does bite
  });

  it("replays only this provider's reasoning_details: openai-compatible sends none here", () => {
    const body = chatCompletionsBody(conversation, { ...openrouter, provider: "openai-compatible", effortStyle: "reasoning_effort", effort: "off" });
    expect(JSON.stringify(body)).not.toContain("reasoning");
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("sends the token limit in max_completion_tokens when told to", () => {
    const body = chatCompletionsBody({ messages: [{ role: "user", content: "Hi" }], maxTokens: 500 }, { ...openrouter, maxTokensField: "max_completion_tokens", maxTokens: 100 });
    expect(body).toMatchObject({ max_completion_tokens: 500 });
    expect(body).not.toHaveProperty("max_tokens");
  });

  it("maps the effort ladder per the provider, never touching the token limit", () => {
    const levels: Effort[] = ["off", "low", "medium", "high", "max"];
    expect(levels.map((effort) => effortFields(effort, "openrouter"))).toEqual([
      {},
      { reasoning: { effort: "low" } },
      { reasoning: { effort: "medium" } },
      { reasoning: { effort: "high" } },
      { reasoning: { effort: "xhigh" } },
    ]);
    expect(levels.map((effort) => effortFields(effort, "reasoning_effort"))).toEqual([
      {},
      { reasoning_effort: "low" },
      { reasoning_effort: "medium" },
      { reasoning_effort: "high" },
      { reasoning_effort: "high" },
    ]);
    for (const effort of levels) {
      const body = chatCompletionsBody({ messages: [{ role: "user", content: "Hi" }], maxTokens: 64 }, { ...openrouter, effort });
      expect(body.max_tokens).toBe(64);
      expect(schemaErrors(body)).toEqual([]);
    }
  });
});
