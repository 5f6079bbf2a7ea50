import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createKernel } from "@weft/core";
import type { Message } from "@weft/sdk";
import { useScriptedServer } from "@weft/sdk/testing";
import { createAiSdkModel } from "./ai-sdk-model.js";
import { aiSdkPlugin, aiSdkProvider } from "./ai-sdk-provider.js";
import { chatText, frame, sse, sseReply, start } from "./test-fixtures/wires.js";

const server = useScriptedServer(beforeEach, afterEach);

const compat = () => createOpenAICompatible({ name: "compat", baseURL: `${server.url}/v1`, includeUsage: true });

/** A transcript with every kind of message: a tool round whose second result failed. */
const transcript: Message[] = [
  { role: "system", content: "Be brief." },
  { role: "user", content: "Weather in Oslo and Bergen?" },
  {
    role: "assistant",
    content: "Checking.",
    toolCalls: [
      { id: "call_1", name: "weather", arguments: { city: "Oslo" } },
      { id: "call_2", name: "weather", arguments: { city: "Bergen" } },
    ],
  },
  { role: "tool", toolCallId: "call_1", toolName: "weather", content: "12 C" },
  { role: "tool", toolCallId: "call_2", toolName: "weather", content: "weather failed: timeout", isError: true },
];
const tools = [{ name: "weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }];

describe("an AI SDK model as a weft ChatModel", () => {
  it("sends the neutral transcript as a Chat Completions body the API accepts", async () => {
    server.reply(sseReply(frame(chatText("Oslo 12 C."))));
    const model = createAiSdkModel({ provider: "compat", factory: compat(), model: "gpt-test", effort: "high", maxTokens: 300 });
    const reply = await model.chat({ messages: transcript, tools, temperature: 0.2 });
    expect(reply).toEqual({
      role: "assistant",
      content: "Oslo 12 C.",
      model: "compat/gpt-test",
      stopReason: "stop",
      stats: { promptTokens: 12, outputTokens: 4, totalTokens: 16, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    // Tool results are strings tied to their call ids; arguments are JSON strings; one tool message per result.
    expect(server.requests[0]?.json()).toEqual({
      model: "gpt-test",
      max_tokens: 300,
      temperature: 0.2,
      reasoning_effort: "high",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Oslo and Bergen?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
            { id: "call_2", type: "function", function: { name: "weather", arguments: '{"city":"Bergen"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: "12 C" },
        { role: "tool", tool_call_id: "call_2", content: "weather failed: timeout" },
      ],
      tools: [{ type: "function", function: { name: "weather", description: "Weather for a city", parameters: tools[0]?.inputSchema } }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("reads Anthropic's cache tokens and thinking, and replays the signed thinking to Anthropic only", async () => {
    const thinking = [
      { ...start, message: { ...start.message, usage: { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 } } },
      { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "", signature: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "Oslo is cold." } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig-abc" } },
      { type: "content_block_stop", index: 0 },
      { type: "content_block_start", index: 1, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 1, delta: { type: "text_delta", text: "Cold." } },
      { type: "content_block_stop", index: 1 },
      { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 9 } },
      { type: "message_stop" },
    ];
    server.reply(sseReply(sse(thinking)), sseReply(sse(thinking)));
    const model = createAiSdkModel({ provider: "claude", factory: createAnthropic({ baseURL: `${server.url}/v1`, apiKey: "k" }), model: "claude-test" });
    const first = await model.chat({ messages: [{ role: "user", content: "Oslo?" }] });
    expect(first.stats).toEqual({ promptTokens: 125, outputTokens: 9, totalTokens: 134, cacheReadTokens: 100, cacheWriteTokens: 20 });
    expect(first.reasoning).toEqual([{ provider: "claude", text: "Oslo is cold.", details: [{ anthropic: { signature: "sig-abc" } }] }]);
    await model.chat({ messages: [{ role: "user", content: "Oslo?" }, first, { role: "user", content: "And now?" }] });
    expect(server.requests[1]?.json().messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Oslo is cold.", signature: "sig-abc" },
        { type: "text", text: "Cold." },
      ],
    });
    // Another provider's reasoning is not replayed.
    const compatModel = createAiSdkModel({ provider: "compat", factory: compat(), model: "m" });
    server.reply(sseReply(frame(chatText("ok"))));
    await compatModel.chat({ messages: [{ role: "user", content: "Oslo?" }, first] });
    expect(server.requests[2]?.json().messages[1]).toEqual({ role: "assistant", content: "Cold." });
  });

  it("registers as a provider in code, and by config naming the package and its factory", async () => {
    const kernel = createKernel();
    await kernel.use(aiSdkProvider("compat", compat(), { contextWindow: 32_000 }));
    await kernel.use(aiSdkPlugin, {
      providers: { local: { package: "@ai-sdk/openai-compatible", factory: "createOpenAICompatible", options: { name: "local", baseURL: `${server.url}/local` } } },
    });
    await kernel.ready();
    try {
      expect(kernel.providers()).toEqual(expect.arrayContaining(["compat", "local"]));
      server.reply(sseReply(frame(chatText("from code"))), sseReply(frame(chatText("from config"))));
      const coded = await kernel.createModel("compat/m1");
      expect((await coded.chat({ messages: [{ role: "user", content: "hi" }] })).content).toBe("from code");
      expect(await coded.info()).toEqual({ provider: "compat", model: "m1", contextWindow: 32_000 });
      const configured = await kernel.createModel("local/m2");
      expect((await configured.chat({ messages: [{ role: "user", content: "hi" }] })).content).toBe("from config");
      expect(server.requests.map((request) => request.path)).toEqual(["/v1/chat/completions", "/local/chat/completions"]);
    } finally {
      await kernel.close();
    }
  });

  it("names the provider entry when the configured factory does not exist", async () => {
    const kernel = createKernel();
    const error = await kernel.use(aiSdkPlugin, { providers: { bad: { package: "@ai-sdk/openai-compatible", factory: "createNothing" } } }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(String((error as Error)?.message)).toContain("providers.bad: @ai-sdk/openai-compatible exports no function createNothing; it has createOpenAICompatible");
    await kernel.close();
  });
  it("fails with the idle timeout when the stream goes quiet, and hangs up", async () => {
    server.reply({ ...sseReply(frame(chatText("slow")).slice(0, 1)), hang: true });
    const model = createAiSdkModel({ provider: "compat", factory: compat(), model: "gpt-test", maxRetries: 0, idleTimeoutMs: 300 });
    const error = await model.chat({ messages: [{ role: "user", content: "hi" }] }).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect((error as Error).message).toBe(
      "compat: no data from the provider for 300 ms, so the request was dropped; try again, or raise idleTimeoutMs if the model is slow to start",
    );
    await server.disconnected(0);
  });

  it("times out a provider that accepted the request and never answered", async () => {
    server.reply({ silent: true });
    const model = createAiSdkModel({ provider: "compat", factory: compat(), model: "gpt-test", maxRetries: 0, idleTimeoutMs: 300 });
    await expect(model.chat({ messages: [{ role: "user", content: "hi" }] })).rejects.toThrow(/^compat: no data from the provider for 300 ms/);
    await server.disconnected(0);
  });
});
