import { describe, expect, it } from "vitest";
import type { ChatRequest, Effort } from "@weft/sdk";
import { anthropicRequestBody } from "./anthropic-request.js";

const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const time = { name: "get_time", description: "Local time in a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } };

/** A system prompt, tools, a thinking block, parallel tool calls and their results (one failed). */
const conversation: ChatRequest = {
  messages: [
    { role: "system", content: "You are terse." },
    { role: "system", content: "Use metric units." },
    { role: "user", content: "Weather and time in Paris?" },
    {
      role: "assistant",
      content: "Checking both.",
      reasoning: [
        { provider: "anthropic", text: "Two tools at once.", signature: "sig-1" },
        { provider: "anthropic", redacted: "opaque-data" },
        { provider: "openrouter", details: [{ type: "reasoning.text", text: "not ours" }] },
      ],
      toolCalls: [
        { id: "toolu_1", name: "get_weather", arguments: { city: "Paris" } },
        { id: "toolu_2", name: "get_time", arguments: { city: "Paris" } },
      ],
    },
    { role: "tool", toolCallId: "toolu_1", toolName: "get_weather", content: "18°C, cloudy" },
    { role: "tool", toolCallId: "toolu_2", toolName: "get_time", content: "time service down", isError: true },
    { role: "user", content: "Thanks. Anything else?" },
  ],
  tools: [weather, time],
};

const call = { model: "claude-sonnet-4-5", effort: "off" as Effort, maxTokens: 8192, promptCaching: true };

describe("anthropic request body", () => {
  it("maps a whole conversation to the exact Messages API body", () => {
    expect(JSON.stringify(anthropicRequestBody(conversation, call))).toBe(
      JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 8192,
        system: [{ type: "text", text: "You are terse.\n\nUse metric units.", cache_control: { type: "ephemeral" } }],
        messages: [
          { role: "user", content: [{ type: "text", text: "Weather and time in Paris?" }] },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "Two tools at once.", signature: "sig-1" },
              { type: "redacted_thinking", data: "opaque-data" },
              { type: "text", text: "Checking both." },
              { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
              { type: "tool_use", id: "toolu_2", name: "get_time", input: { city: "Paris" } },
            ],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_1", content: "18°C, cloudy" },
              { type: "tool_result", tool_use_id: "toolu_2", content: "time service down", is_error: true },
              { type: "text", text: "Thanks. Anything else?", cache_control: { type: "ephemeral" } },
            ],
          },
        ],
        tools: [
          { name: "get_weather", description: "Weather for a city", input_schema: weather.inputSchema },
          { name: "get_time", description: "Local time in a city", input_schema: time.inputSchema, cache_control: { type: "ephemeral" } },
        ],
        stream: true,
      }),
    );
  });

  it("sends temperature when asked, and no cache breakpoints when prompt caching is off", () => {
    const body = anthropicRequestBody({ ...conversation, temperature: 0.2 }, { ...call, promptCaching: false });
    expect(body.temperature).toBe(0.2);
    expect(JSON.stringify(body)).not.toContain("cache_control");
  });

  it("drops an empty assistant turn and merges the user turns around it", () => {
    const body = anthropicRequestBody(
      {
        messages: [
          { role: "user", content: "Do something bad." },
          { role: "assistant", content: "", stopReason: "refusal" },
          { role: "user", content: "Then something good." },
        ],
      },
      { ...call, promptCaching: false },
    );
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Do something bad." },
          { type: "text", text: "Then something good." },
        ],
      },
    ]);
  });

  it("always sends tool_use input as an object, and puts the last breakpoint on a block that can hold it", () => {
    const body = anthropicRequestBody(
      {
        messages: [
          { role: "user", content: "Go" },
          { role: "assistant", content: "", reasoning: [{ provider: "anthropic", text: "t", signature: "s" }], toolCalls: [{ id: "t1", name: "noop", arguments: {} }] },
        ],
      },
      call,
    );
    expect(body.messages.at(-1)).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "t", signature: "s" },
        { type: "tool_use", id: "t1", name: "noop", input: {}, cache_control: { type: "ephemeral" } },
      ],
    });
    expect(body.system).toBeUndefined();
    expect(body.tools).toBeUndefined();
  });
  it("maps a frozen tool list once and shares its tools between requests, marking a copy of the last", () => {
    // An agent's tool list is frozen until its tools change (core's tool-specs.ts).
    const tools = Object.freeze([weather, time].map((tool) => Object.freeze({ ...tool })));
    const ask = (promptCaching: boolean) => anthropicRequestBody({ messages: [{ role: "user", content: "Hi" }], tools }, { ...call, promptCaching });
    const first = ask(true);
    const second = ask(true);
    const plain = ask(false);
    expect(second.tools?.[0]).toBe(first.tools?.[0]);
    expect(plain.tools?.[0]).toBe(first.tools?.[0]);
    expect(second.tools).not.toBe(first.tools);
    const wire = (cached: boolean) => [
      { name: "get_weather", description: "Weather for a city", input_schema: weather.inputSchema },
      { name: "get_time", description: "Local time in a city", input_schema: time.inputSchema, ...(cached ? { cache_control: { type: "ephemeral" } } : {}) },
    ];
    expect(JSON.stringify(second.tools)).toBe(JSON.stringify(wire(true)));
    // The breakpoint went on a copy: the shared last tool is unmarked in a request without caching.
    expect(JSON.stringify(plain.tools)).toBe(JSON.stringify(wire(false)));
  });
});
