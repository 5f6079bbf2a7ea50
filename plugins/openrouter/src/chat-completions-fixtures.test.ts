import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError, type AssistantMessage, type StreamEvent } from "@weft/sdk";
import { defined, doneMessage, drain, useScriptedServer, type ScriptedResponse } from "@weft/sdk/testing";
import { createCompatibleModel, createOpenRouterModel } from "./chat-completions-model.js";

// Recorded Chat Completions traffic and OpenRouter's documented examples, vendored in the repo.
const fixtures = new URL("../../../fixtures/providers/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), "utf8");
const lines = (name: string) => fixture(name).split("\n").filter((line) => line.trim() !== "");
const docs = JSON.parse(fixture("openrouter/docs-examples.json")) as { examples: { what: string; parsed: Record<string, any>; sse_line?: string }[]; sse_comment_keepalive: { line: string } };
const example = (what: string) => defined(docs.examples.find((entry) => entry.what.startsWith(what)));

/** The text a recording's deltas spell, computed independently of the decoder. */
const spelled = (name: string, field: "content" | "reasoning_content") =>
  lines(name)
    .map((line) => JSON.parse(line).choices?.[0]?.delta?.[field] ?? "")
    .join("");

const compat = (content: string, extra: Partial<AssistantMessage>): AssistantMessage => ({ role: "assistant", content, ...extra, model: "openai-compatible/test-model" });

const xaiReasoning = spelled("openai-compatible/openai-compatible--xai-tool-call.chunks.txt", "reasoning_content");
const deepseekReasoning = spelled("openai-compatible/deepseek--deepseek-tool-call.chunks.txt", "reasoning_content");

/** What each streamed recording must come out as. */
const streamed: Record<string, AssistantMessage> = {
  "openai--openai-text": compat(spelled("openai-compatible/openai--openai-text.chunks.txt", "content"), {
    stats: { promptTokens: 16, outputTokens: 300, totalTokens: 316, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    stopReason: "stop",
  }),
  "openai-compatible--xai-tool-call": compat("", {
    toolCalls: [{ id: "call_79382389", name: "weather", arguments: { location: "San Francisco" } }],
    reasoning: [{ provider: "openai-compatible", text: xaiReasoning }],
    // total_tokens as xAI reports it (reasoning included), not prompt + completion.
    stats: { promptTokens: 307, outputTokens: 26, totalTokens: 560, cacheReadTokens: 306, cacheWriteTokens: 0, reasoningTokens: 227 },
    stopReason: "tool_calls",
  }),
  "groq--groq-tool-call": compat("", {
    toolCalls: [{ id: "tk85n1k4m", name: "weather", arguments: {} }],
    stats: { promptTokens: 210, outputTokens: 15, totalTokens: 225, cacheReadTokens: 0, cacheWriteTokens: 0 },
    stopReason: "tool_calls",
  }),
  "deepseek--deepseek-tool-call": compat("", {
    toolCalls: [{ id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", arguments: { location: "San Francisco" } }],
    reasoning: [{ provider: "openai-compatible", text: deepseekReasoning }],
    stats: { promptTokens: 339, outputTokens: 83, totalTokens: 422, cacheReadTokens: 320, cacheWriteTokens: 0, reasoningTokens: 39 },
    stopReason: "tool_calls",
  }),
};

/** What each whole (non-streamed) JSON completion must come out as. */
const whole: Record<string, AssistantMessage> = {
  "openai--openai-text": compat(JSON.parse(fixture("openai-compatible/openai--openai-text.json")).choices[0].message.content, {
    stats: { promptTokens: 16, outputTokens: 363, totalTokens: 379, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    stopReason: "stop",
  }),
  "openai-compatible--xai-tool-call": compat("", {
    toolCalls: [{ id: "call_46427107", name: "weather", arguments: { location: "San Francisco" } }],
    reasoning: [{ provider: "openai-compatible", text: JSON.parse(fixture("openai-compatible/openai-compatible--xai-tool-call.json")).choices[0].message.reasoning_content }],
    stats: { promptTokens: 307, outputTokens: 26, totalTokens: 588, cacheReadTokens: 244, cacheWriteTokens: 0, reasoningTokens: 255 },
    stopReason: "tool_calls",
  }),
  "groq--groq-tool-call": compat("", {
    toolCalls: [{ id: "ax9fskhev", name: "weather", arguments: {} }],
    stats: { promptTokens: 218, outputTokens: 15, totalTokens: 233, cacheReadTokens: 0, cacheWriteTokens: 0 },
    stopReason: "tool_calls",
  }),
  "deepseek--deepseek-tool-call": compat("", {
    toolCalls: [{ id: "call_00_9V0vrf86Pc9aelHCJMZqnJBo", name: "weather", arguments: { location: "San Francisco" } }],
    reasoning: [{ provider: "openai-compatible", text: JSON.parse(fixture("openai-compatible/deepseek--deepseek-tool-call.json")).choices[0].message.reasoning_content }],
    stats: { promptTokens: 339, outputTokens: 92, totalTokens: 431, cacheReadTokens: 320, cacheWriteTokens: 0, reasoningTokens: 48 },
    stopReason: "tool_calls",
  }),
};

describe("chat completions: recorded traffic replayed over HTTP", () => {
  const server = useScriptedServer(beforeAll, afterAll);

  async function replay(response: ScriptedResponse, provider: "openai-compatible" | "openrouter" = "openai-compatible"): Promise<StreamEvent[]> {
    server.reply(response);
    const spec = { provider, model: "test-model", baseUrl: server.url, apiKey: "test-key", maxRetries: 0 };
    const model = provider === "openrouter" ? createOpenRouterModel(spec) : createCompatibleModel(spec);
    return drain(model.stream({ messages: [{ role: "user", content: "Hi" }] }));
  }
  const sse = (body: string): ScriptedResponse => ({ headers: { "content-type": "text/event-stream" }, body });
  const sseOf = (chunks: unknown[], done = true) => sse(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") + (done ? "data: [DONE]\n\n" : ""));
  it.each(Object.keys(streamed))("%s.sse replays to the exact message", async (name) => {
    const events = await replay(sse(fixture(`openai-compatible/${name}.sse`)));
    const message = doneMessage(events);
    expect(message).toEqual(streamed[name]);
    expect(events.filter((event) => event.type === "text").map((event) => event.delta).join("")).toBe(message.content);
    expect(events.filter((event) => event.type === "reasoning").map((event) => event.delta).join("")).toBe(message.reasoning?.[0]?.text ?? "");
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.call)).toEqual(message.toolCalls ?? []);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
  });

  it.each(Object.keys(streamed))("%s.chunks.txt framed as SSE gives the same message", async (name) => {
    const chunks = lines(`openai-compatible/${name}.chunks.txt`).map((line) => JSON.parse(line));
    expect(doneMessage(await replay(sseOf(chunks)))).toEqual(streamed[name]);
  });

  it.each(Object.keys(whole))("%s.json, answered whole instead of streamed, gives its message", async (name) => {
    const response = { headers: { "content-type": "application/json" }, body: fixture(`openai-compatible/${name}.json`) };
    expect(doneMessage(await replay(response))).toEqual(whole[name]);
  });

  it("fails a whole reply whose JSON is not a completion object, instead of answering nothing", async () => {
    await expect(replay({ headers: { "content-type": "application/json" }, body: '"busy"' })).rejects.toMatchObject({
      code: "PROVIDER_ERROR",
      message: 'openai-compatible: the response is JSON but not an object: "busy"',
    });
  });

  it("anthropic-openai-compat-tool-call.sse: tool-call index starting at 1, no usage, [DONE] without a blank line", async () => {
    const events = await replay(sse(fixture("openai-compatible/anthropic-openai-compat-tool-call.sse")));
    expect(doneMessage(events)).toEqual(compat("Reading it.", { toolCalls: [{ id: "toolu_sanitized", name: "read_file", arguments: { path: "a.txt" } }], stopReason: "tool_calls" }));
    expect(events.map((event) => event.type)).toEqual(["text", "text", "tool_call", "done"]);
  });

  it("openai--reasoning-model-legacy-parameter-error.json: a 400 with OpenAI's error body, not retried", async () => {
    const body = fixture("openai-compatible/openai--reasoning-model-legacy-parameter-error.json");
    const error = await replay({ status: 400, headers: { "content-type": "application/json" }, body }).then(
      () => expect.fail("a 400 must fail"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      provider: "openai-compatible",
      status: 400,
      retries: 0,
      providerType: "invalid_request_error",
      providerMessage: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    });
    expect((error as Error).message).toBe(
      "openai-compatible: HTTP 400 invalid_request_error: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.; the provider rejected the request; check the model name and request settings",
    );
  });

  it("openrouter docs: a mid-stream error chunk (HTTP 200) becomes a typed error after the text so far", async () => {
    const text = { choices: [{ index: 0, delta: { content: "Partial" }, finish_reason: null }] };
    const keepalive = `${docs.sse_comment_keepalive.line}\n\n`;
    server.reply(sse(`${keepalive}data: ${JSON.stringify(text)}\n\n${example("mid-stream error").sse_line}\n\n`));
    const model = createOpenRouterModel({ provider: "openrouter", model: "openai/gpt-4o", baseUrl: server.url, apiKey: "test-key" });
    const events: string[] = [];
    const error = await (async () => {
      for await (const event of model.stream({ messages: [{ role: "user", content: "Hi" }] })) events.push(event.type === "text" ? event.delta : event.type);
    })().then(
      () => expect.fail("a mid-stream error must fail"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: "openrouter", status: 429, providerType: "rate_limit_exceeded", providerMessage: "Rate limit exceeded" });
    expect((error as Error).message).toBe("openrouter: the provider reported an error mid-stream: rate_limit_exceeded: Rate limit exceeded");
    expect(events).toEqual(["Partial"]);
  });

  it("openrouter docs: the usage chunk's cached and cache-write tokens, past keep-alive comments", async () => {
    const keepalive = `${docs.sse_comment_keepalive.line}\n\n`;
    const text = { choices: [{ index: 0, delta: { role: "assistant", content: "Hi!" }, finish_reason: "stop" }] };
    const response = sse(`${keepalive}data: ${JSON.stringify(text)}\n\n${keepalive}data: ${JSON.stringify(example("final usage chunk").parsed)}\n\ndata: [DONE]\n\n`);
    expect(doneMessage(await replay(response, "openrouter"))).toEqual({
      role: "assistant",
      content: "Hi!",
      // usage.cost is OpenRouter's own figure for the reply.
      stats: { promptTokens: 194, outputTokens: 2, totalTokens: 196, cacheReadTokens: 0, cacheWriteTokens: 100, reasoningTokens: 0, costUsd: 0.95 },
      stopReason: "stop",
      model: "openrouter/test-model",
    });
  });

  it("openrouter docs: reasoning_details of a whole message are kept unmodified for replay", async () => {
    const completion = { ...example("reasoning_details non-streaming").parsed };
    completion.choices = completion.choices.map((choice: object) => ({ ...choice, finish_reason: "stop" }));
    const message = doneMessage(await replay({ headers: { "content-type": "application/json" }, body: JSON.stringify(completion) }, "openrouter"));
    expect(message).toEqual({
      role: "assistant",
      content: "Based on my analysis, I recommend the following approach...",
      reasoning: [{ provider: "openrouter", text: "Analyzed the problem by breaking it into componentsLet me work through this systematically:\n1. First consideration...\n2. Second consideration...", details: completion.choices[0].message.reasoning_details }],
      stopReason: "stop",
      model: "openrouter/test-model",
    });
  });

  it("openrouter docs: streamed reasoning_details become reasoning deltas and are merged by index", async () => {
    const fragment = example("reasoning_details streaming delta").parsed;
    const detail = fragment.choices[0].delta.reasoning_details[0];
    const more = { choices: [{ delta: { reasoning_details: [{ ...detail, text: " Then conclude." }] } }] };
    const answer = { choices: [{ delta: { content: "Done." }, finish_reason: "stop" }] };
    const events = await replay(sseOf([fragment, more, answer]), "openrouter");
    expect(events.filter((event) => event.type === "reasoning").map((event) => event.delta)).toEqual(["Let me think about this step by step...", " Then conclude."]);
    expect(doneMessage(events).reasoning).toEqual([
      { provider: "openrouter", text: "Let me think about this step by step... Then conclude.", details: [{ ...detail, text: "Let me think about this step by step... Then conclude." }] },
    ]);
  });

  /** A recording's data chunks, parsed, for deriving variants of it. */
  const chunksOf = (name: string): any[] =>
    fixture(`openai-compatible/${name}.sse`)
      .split("\n\n")
      .map((event) => event.trim().replace(/^data: /, ""))
      .filter((data) => data !== "" && data !== "[DONE]")
      .map((data) => JSON.parse(data));

  it("reads content given as an array of parts, text and thinking (derived from openai--openai-text.sse)", async () => {
    const recorded = doneMessage(await replay(sse(fixture("openai-compatible/openai--openai-text.sse"))));
    const chunks = chunksOf("openai--openai-text").map((chunk) => {
      const delta = chunk.choices?.[0]?.delta;
      if (typeof delta?.content === "string" && delta.content !== "") delta.content = [{ type: "text", text: delta.content }];
      return chunk;
    });
    chunks.splice(1, 0, { ...chunks[0], choices: [{ index: 0, delta: { content: [{ type: "thinking", thinking: [{ type: "text", text: "Thinking first." }] }] }, finish_reason: null }] });
    const message = doneMessage(await replay(sseOf(chunks)));
    expect(message.content).toBe(recorded.content);
    expect(message.reasoning).toEqual([{ provider: "openai-compatible", text: "Thinking first." }]);
  });

  it("reads cached tokens from the top level of usage and from prompt_cache_hit_tokens (derived from deepseek--deepseek-tool-call.sse)", async () => {
    const withUsage = (usage: object) => chunksOf("deepseek--deepseek-tool-call").map((chunk) => (chunk.usage ? { ...chunk, usage } : chunk));
    const base = { prompt_tokens: 339, completion_tokens: 83, total_tokens: 422 };
    expect(doneMessage(await replay(sseOf(withUsage({ ...base, cached_tokens: 300 })))).stats?.cacheReadTokens).toBe(300);
    expect(doneMessage(await replay(sseOf(withUsage({ ...base, prompt_cache_hit_tokens: 320, prompt_cache_miss_tokens: 19 })))).stats?.cacheReadTokens).toBe(320);
  });

  it('fails finish_reason "error" with no error object, saying so (derived from openai--openai-text.sse)', async () => {
    const chunks = chunksOf("openai--openai-text");
    const last = chunks.findLast((chunk) => chunk.choices?.[0]?.finish_reason);
    last.choices[0].finish_reason = "error";
    await expect(replay(sseOf(chunks))).rejects.toThrow('openai-compatible: the provider reported an error mid-stream: the reply ended with finish_reason "error" and no details');
  });

  it("fails an HTTP 200 whose body is an HTML page, saying what came back", async () => {
    const page = "<!doctype html><html><head><title>Just a moment...</title></head><body></body></html>";
    await expect(replay({ headers: { "content-type": "text/html; charset=UTF-8" }, body: page })).rejects.toThrow(
      'openai-compatible: HTTP 200 with an HTML page titled "Just a moment..." instead of the API\'s answer; check baseUrl (a proxy or login page may be answering)',
    );
  });
});
