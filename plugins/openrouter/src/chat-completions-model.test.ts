import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError, WeftError, type ToolCall } from "@weft/sdk";
import { defined, createTestKernel, runProviderConformance, startScriptedServer, useScriptedServer, type ConformanceWire, drain, rejectionOf } from "@weft/testing";
import openrouter from "./index.js";
import { createCompatibleModel, createOpenRouterModel } from "./chat-completions-model.js";

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) => ({
  id: "gen-1",
  object: "chat.completion.chunk",
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const usage = { id: "gen-1", object: "chat.completion.chunk", choices: [], usage: { prompt_tokens: 12, completion_tokens: 4, total_tokens: 16 } };
const frame = (chunks: unknown[]) => chunks.map((payload) => `data: ${typeof payload === "string" ? payload : JSON.stringify(payload)}\n\n`);

function textChunks(text: string): unknown[] {
  const half = Math.ceil(text.length / 2);
  return [chunk({ role: "assistant", content: "" }), chunk({ content: text.slice(0, half) }), chunk({ content: text.slice(half) }), chunk({}, "stop"), usage, "[DONE]"];
}

function toolChunks(call: ToolCall): unknown[] {
  const json = JSON.stringify(call.arguments);
  return [
    chunk({ role: "assistant", content: null }),
    chunk({ tool_calls: [{ index: 0, id: call.id, type: "function", function: { name: call.name, arguments: "" } }] }),
    chunk({ tool_calls: [{ index: 0, id: "", function: { name: "", arguments: json.slice(0, 4) } }] }),
    chunk({ tool_calls: [{ index: 0, function: { arguments: json.slice(4) } }] }),
    chunk({}, "tool_calls"),
    usage,
    "[DONE]",
  ];
}

const wire: ConformanceWire = {
  contentType: "text/event-stream",
  text: (text) => frame(textChunks(text)),
  toolCall: (call) => frame(toolChunks(call)),
  // Cut before the finish_reason: without it or [DONE] the reply is incomplete.
  truncated: (text) => frame(textChunks(text).slice(0, 3)),
  errorBody: (status, message) => JSON.stringify({ error: { code: status, message } }),
};

// OpenRouter asks for its model list when effort is on; an empty list leaves effort as asked.
const openrouterWire: ConformanceWire = {
  ...wire,
  // OpenRouter's mid-stream error chunk: the upstream status as error.code.
  overloadedBeforeContent: () => frame([chunk({ role: "assistant", content: "" }), { error: { code: 529, message: "Provider overloaded" } }]),
  routes: { "GET /models": { headers: { "content-type": "application/json" }, body: '{"data":[]}' } } };
runProviderConformance({ describe, it }, { provider: "openrouter", wire: openrouterWire, createModel: (settings) => createOpenRouterModel({ provider: "openrouter", apiKey: "test-key", ...settings }) });
runProviderConformance({ describe, it }, { provider: "openai-compatible", wire, createModel: (settings) => createCompatibleModel({ provider: "openai-compatible", ...settings }) });

describe("chat completions over HTTP", () => {
  const server = useScriptedServer(beforeEach, afterEach);

  const router = (extra: Record<string, unknown> = {}) =>
    createOpenRouterModel({ provider: "openrouter", model: "openai/gpt-4o", apiKey: "sk-or-test", baseUrl: `${server.url}/api/v1/`, retryBaseDelayMs: 1, ...extra });
  const sse = (chunks: unknown[]) => ({ headers: { "content-type": "text/event-stream" }, body: frame(chunks) });
  const hi = { messages: [{ role: "user" as const, content: "Hi" }] };

  const listing = (data: unknown[]) => ({ headers: { "content-type": "application/json" }, body: JSON.stringify({ data }) });
  /** Model entries in the documented shape of GET /api/v1/models. */
  const gpt4o = { id: "openai/gpt-4o", context_length: 128000, architecture: { input_modalities: ["text", "image", "file"] }, supported_parameters: ["tools", "max_tokens", "temperature", "response_format", "structured_outputs"], pricing: { prompt: "0.0000025", completion: "0.00001" } };
  const o3 = { id: "openai/o3", context_length: 200000, architecture: { input_modalities: ["text", "image"] }, supported_parameters: ["tools", "reasoning", "include_reasoning", "max_tokens"], pricing: { prompt: "0.000002", completion: "0.000008", input_cache_read: "0.0000005" } };

  it("POSTs to {baseUrl}/chat/completions with the bearer key and OpenRouter's attribution headers", async () => {
    server.route("GET", "/api/v1/models", listing([gpt4o, o3]));
    server.reply(sse(textChunks("ok")));
    await router({ model: "openai/o3", appName: "weft tests", appUrl: "https://example.com/app", effort: "high" }).chat(hi);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/v1/chat/completions" });
    expect(defined(request).headers).toMatchObject({ authorization: "Bearer sk-or-test", "http-referer": "https://example.com/app", "x-title": "weft tests" });
    expect(defined(request).body).toBe(
      JSON.stringify({
        model: "openai/o3",
        messages: [{ role: "user", content: "Hi" }],
        reasoning: { effort: "high" },
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
  });

  it("sends reasoning only to a model whose entry lists it, and says when it left effort out", async () => {
    server.route("GET", "/api/v1/models", listing([gpt4o, o3]));
    server.reply(sse(textChunks("a")), sse(textChunks("b")));
    const chat = router({ models: ["openai/o3"], effort: "max" });
    const events = await drain(chat.stream(hi));
    expect(events.filter((event) => event.type === "notice")).toEqual([{ type: "notice", code: "effort-unsupported", message: "effort max was not sent: the model does not list reasoning" }]);
    chat.changeModel("openai/o3");
    await chat.chat(hi);
    expect(server.requests.map((request) => request.json().reasoning)).toEqual([undefined, { effort: "xhigh" }]);
    // One listing serves every model.
    expect(server.routed).toHaveLength(1);
  });

  it("sends effort as asked when the model list cannot be read, and never fails the chat over it", async () => {
    server.route("GET", "/api/v1/models", { status: 503, body: "down" });
    server.reply(sse(textChunks("a")), sse(textChunks("b")));
    const chat = router({ model: "openai/o3", effort: "low" });
    expect((await chat.chat(hi)).content).toBe("a");
    await chat.chat(hi);
    expect(server.routed).toHaveLength(1);
    expect(server.requests.map((request) => request.json().reasoning)).toEqual([{ effort: "low" }, { effort: "low" }]);
  });

  it("sends no reasoning field at all with effort off, without asking for the model list", async () => {
    server.reply(sse(textChunks("a")));
    await router({ model: "openai/o3" }).chat(hi);
    expect(server.routed).toHaveLength(0);
    expect(defined(server.requests[0]).json()).toEqual({ model: "openai/o3", messages: [{ role: "user", content: "Hi" }], stream: true, stream_options: { include_usage: true } });
  });

  it("marks cache_control breakpoints for anthropic/* models, and none for others", async () => {
    server.reply(sse(textChunks("a")), sse(textChunks("b")));
    const request = { messages: [{ role: "system" as const, content: "Be brief." }, { role: "user" as const, content: "Hi" }] };
    await router({ model: "anthropic/claude-sonnet-4.5" }).chat(request);
    await router().chat(request);
    expect(defined(server.requests[0]).json().messages).toEqual([
      { role: "system", content: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }] },
      { role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] },
    ]);
    expect(defined(server.requests[1]).json().messages).toEqual(request.messages);
  });

  it("prices a reply from the model list when OpenRouter reports no cost", async () => {
    server.route("GET", "/api/v1/models", listing([o3]));
    const usage = { choices: [], usage: { prompt_tokens: 1000, completion_tokens: 100, total_tokens: 1100, prompt_tokens_details: { cached_tokens: 400 } } };
    server.reply(sse([...textChunks("a").filter((chunk) => chunk !== "[DONE]"), usage, "[DONE]"]));
    const message = await router({ model: "openai/o3", effort: "low" }).chat(hi);
    // 600 uncached × $2/M + 400 cached × $0.5/M + 100 output × $8/M
    expect(message.stats?.costUsd).toBeCloseTo(0.0012 + 0.0002 + 0.0008, 10);
  });

  it("sends no key to an openai-compatible server that needs none, and reasoning_effort for effort", async () => {
    server.reply(sse(textChunks("local")));
    const local = createCompatibleModel({ provider: "openai-compatible", model: "qwen3", baseUrl: `${server.url}/v1`, effort: "max", maxTokens: 256, capabilities: { reasoning: true } });
    expect((await local.chat(hi)).content).toBe("local");
    const [request] = server.requests;
    expect(defined(request).path).toBe("/v1/chat/completions");
    expect(defined(request).headers.authorization).toBeUndefined();
    expect(defined(request).json()).toEqual({ model: "qwen3", messages: [{ role: "user", content: "Hi" }], max_tokens: 256, reasoning_effort: "high", stream: true, stream_options: { include_usage: true } });
  });

  it("sends an openai-compatible server no reasoning field unless its settings say it reasons", async () => {
    server.reply(sse(textChunks("local")));
    const local = createCompatibleModel({ provider: "openai-compatible", model: "llama", baseUrl: `${server.url}/v1`, effort: "high" });
    const events = await drain(local.stream(hi));
    expect(defined(server.requests[0]).json()).not.toHaveProperty("reasoning_effort");
    expect(events.filter((event) => event.type === "notice")).toHaveLength(1);
  });

  it("retries a 429 after its Retry-After, then answers", async () => {
    server.reply(
      { status: 429, headers: { "content-type": "application/json", "retry-after": "0" }, body: JSON.stringify({ error: { code: 429, message: "Rate limit exceeded" } }) },
      sse(textChunks("after the wait")),
    );
    expect((await router().chat(hi)).content).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
  });

  it("says which key to check on a 401", async () => {
    server.reply({ status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: { code: 401, message: "Missing Authentication header" } }) });
    const error = await rejectionOf(router().chat(hi));
    expect((error as Error).message).toBe("openrouter: HTTP 401 Missing Authentication header; the API key was rejected; check OPENROUTER_API_KEY or the apiKey setting");
  });

  it("fails on malformed JSON in a chunk, naming the provider", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: [...frame(textChunks("x").slice(0, 2)), 'data: {"choices":[{"delta":\n\n'] });
    const error = await rejectionOf(router().chat(hi));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/^openrouter: malformed JSON in the response \(.+\): \{"choices":\[\{"delta":$/);
  });

  it("accepts a stream that ends after a finish_reason without [DONE], and fails one that ends before", async () => {
    server.reply(sse(textChunks("no sentinel").slice(0, -1)), sse(textChunks("cut").slice(0, 3)));
    expect((await router().chat(hi)).content).toBe("no sentinel");
    const error = await rejectionOf(router().chat(hi));
    expect((error as Error).message).toBe("openrouter: the response stream ended before [DONE] or a finish_reason: the reply is incomplete (the connection may have dropped); try again");
  });

  it("fails with the idle timeout when the stream goes quiet, and hangs up", async () => {
    server.reply({ ...sse(textChunks("slow").slice(0, 2)), hang: true });
    const error = await rejectionOf(drain(router({ maxRetries: 0, idleTimeoutMs: 300 }).stream(hi)));
    expect((error as Error).message).toMatch(/^openrouter: no data from the provider for 300 ms/);
    await server.disconnected(0);
  });

  it("merges parallel tool-call fragments by index, emitting each call whole, in index order", async () => {
    server.reply(
      sse([
        chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"ci' } }] }),
        chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: "" } }] }),
        chunk({ tool_calls: [{ index: 0, id: "", function: { name: "", arguments: 'ty":"Oslo"}' } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const events = await drain(router().stream(hi));
    expect(events.map((event) => (event.type === "tool_call" ? event.call : event.type))).toEqual([
      { id: "call_a", name: "get_weather", arguments: { city: "Oslo" } },
      { id: "call_b", name: "get_time", arguments: {} },
      "done",
    ]);
  });

  it("keeps arguments that are not a JSON object on the call for the agent to answer, instead of failing the reply", async () => {
    server.reply(
      sse([
        chunk({ tool_calls: [{ index: 0, id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city": Oslo}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: "call_b", type: "function", function: { name: "get_time", arguments: '["UTC"]' } }] }),
        chunk({}, "tool_calls"),
        "[DONE]",
      ]),
    );
    const reply = await router().chat(hi);
    expect(reply.toolCalls).toEqual([
      { id: "call_a", name: "get_weather", arguments: {}, invalidArguments: { text: '{"city": Oslo}', problem: `not valid JSON: Unexpected token 'O', "{"city": Oslo}" is not valid JSON` } },
      { id: "call_b", name: "get_time", arguments: {}, invalidArguments: { text: '["UTC"]', problem: "not a JSON object but an array" } },
    ]);
  });

  it("reads info() from GET {baseUrl}/models once for every model, and says when the model is not listed", async () => {
    server.reply(listing([{ id: "openai/gpt-4o", context_length: 128000 }, { id: "other/model" }]));
    const chat = router({ models: ["other/model"] });
    expect(await chat.info()).toEqual({ provider: "openrouter", model: "openai/gpt-4o", contextWindow: 128000 });
    expect(await chat.info()).toEqual({ provider: "openrouter", model: "openai/gpt-4o", contextWindow: 128000 });
    chat.changeModel("other/model");
    await expect(chat.info()).rejects.toThrow('openrouter: the context window of model "other/model" is unknown');
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(["GET /api/v1/models"]);
  });

  it("takes OPENAI_BASE_URL and OPENAI_API_KEY from the environment; the config wins, and the key never goes to a configured local server", async () => {
    const saved = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    process.env.OPENAI_BASE_URL = `${server.url}/env/v1`;
    process.env.OPENAI_API_KEY = "sk-from-env";
    try {
      server.reply(sse(textChunks("a")), sse(textChunks("b")), sse(textChunks("c")));
      await createCompatibleModel({ provider: "openai-compatible", model: "gpt-4.1" }).chat(hi);
      await createCompatibleModel({ provider: "openai-compatible", model: "qwen3", baseUrl: `${server.url}/local/v1` }).chat(hi);
      await createCompatibleModel({ provider: "openai-compatible", model: "qwen3", baseUrl: `${server.url}/local/v1`, apiKey: "sk-config" }).chat(hi);
      expect(server.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
        ["/env/v1/chat/completions", "Bearer sk-from-env"],
        ["/local/v1/chat/completions", undefined],
        ["/local/v1/chat/completions", "Bearer sk-config"],
      ]);
    } finally {
      for (const [name, value] of [["OPENAI_BASE_URL", saved.url], ["OPENAI_API_KEY", saved.key]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it("reads vLLM's max_model_len for an openai-compatible info()", async () => {
    server.reply({ headers: { "content-type": "application/json" }, body: JSON.stringify({ object: "list", data: [{ id: "qwen3", object: "model", max_model_len: 32768 }] }) });
    const local = createCompatibleModel({ provider: "openai-compatible", model: "qwen3", baseUrl: `${server.url}/v1` });
    expect(await local.info()).toEqual({ provider: "openai-compatible", model: "qwen3", contextWindow: 32768 });
  });
});

describe("openrouter plugin", () => {
  it("registers openrouter and openai-compatible; createModel('openrouter/openai/gpt-4o') works", async () => {
    const server = await startScriptedServer();
    const kernel = await createTestKernel([[openrouter, { apiKey: "or-key", baseUrl: server.url, compatible: { baseUrl: `${server.url}/local/v1`, maxTokensField: "max_completion_tokens", maxTokens: 99 } }]]);
    try {
      expect(kernel.providers()).toEqual(expect.arrayContaining(["openrouter", "openai-compatible"]));
      const chat = await kernel.createModel("openrouter/openai/gpt-4o");
      expect([chat.provider, chat.model, chat.effort]).toEqual(["openrouter", "openai/gpt-4o", "off"]);
      server.reply({ headers: { "content-type": "text/event-stream" }, body: frame(textChunks("via OpenRouter")) });
      expect(await chat.chat({ messages: [{ role: "user", content: "Hi" }] })).toMatchObject({ content: "via OpenRouter", model: "openrouter/openai/gpt-4o" });
      expect(defined(server.requests[0]).json()).toMatchObject({ model: "openai/gpt-4o" });
      expect(defined(server.requests[0]).json()).not.toHaveProperty("reasoning");

      const local = await kernel.createModel("openai-compatible/Qwen/Qwen3-8B");
      server.reply({ headers: { "content-type": "text/event-stream" }, body: frame(textChunks("via vLLM")) });
      expect((await local.chat({ messages: [{ role: "user", content: "Hi" }] })).content).toBe("via vLLM");
      expect(defined(server.requests[1]).path).toBe("/local/v1/chat/completions");
      expect(defined(server.requests[1]).headers.authorization).toBeUndefined();
      expect(defined(server.requests[1]).json()).toMatchObject({ model: "Qwen/Qwen3-8B", max_completion_tokens: 99 });
    } finally {
      await kernel.close();
      await server.close();
    }
  });

  it("fails fast without OPENROUTER_API_KEY, and without a baseUrl for openai-compatible", async () => {
    const saved = process.env.OPENROUTER_API_KEY;
    delete process.env.OPENROUTER_API_KEY;
    const kernel = await createTestKernel([openrouter]);
    try {
      await expect(kernel.createModel("openrouter/openai/gpt-4o")).rejects.toThrow(
        new WeftError("CREDENTIAL_MISSING", "openrouter: no API key; set OPENROUTER_API_KEY in the environment, or apiKey in the plugin options (weft.config.yaml) or the model spec"),
      );
      await expect(kernel.createModel("openai-compatible/llama3")).rejects.toThrow(
        new WeftError(
          "CONFIG_INVALID",
          "openai-compatible: no baseUrl; set compatible.baseUrl in the openrouter plugin options (e.g. http://localhost:8000/v1), baseUrl in the model spec, or OPENAI_BASE_URL",
        ),
      );
      process.env.OPENROUTER_API_KEY = "from-env";
      expect((await kernel.createModel("openrouter/openai/gpt-4o")).model).toBe("openai/gpt-4o");
    } finally {
      if (saved === undefined) delete process.env.OPENROUTER_API_KEY;
      else process.env.OPENROUTER_API_KEY = saved;
      await kernel.close();
    }
  });
});
