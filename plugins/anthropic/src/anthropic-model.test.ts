import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError, WeftError, type ToolCall } from "@weft/sdk";
import { defined, createTestKernel, runProviderConformance, startScriptedServer, useScriptedServer, type ConformanceWire, drain, rejectionOf } from "@weft/testing";
import anthropic from "./index.js";
import { createAnthropicModel } from "./anthropic-model.js";

/** Messages API events framed as SSE, one write each. */
function sse(events: Record<string, unknown>[]): string[] {
  return events.map((event) => `event: ${String(event.type)}\ndata: ${JSON.stringify(event)}\n\n`);
}

const start = { type: "message_start", message: { id: "msg_1", type: "message", role: "assistant", content: [], usage: { input_tokens: 10, output_tokens: 1 } } };
const end = (stopReason: string) => [
  { type: "message_delta", delta: { stop_reason: stopReason }, usage: { output_tokens: 7 } },
  { type: "message_stop" },
];

function textReply(text: string): Record<string, unknown>[] {
  const half = Math.ceil(text.length / 2);
  return [
    start,
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(0, half) } },
    { type: "ping" },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: text.slice(half) } },
    { type: "content_block_stop", index: 0 },
    ...end("end_turn"),
  ];
}

function toolReply(call: ToolCall): Record<string, unknown>[] {
  const json = JSON.stringify(call.arguments);
  return [
    start,
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: call.id, name: call.name, input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json.slice(0, 5) } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: json.slice(5) } },
    { type: "content_block_stop", index: 0 },
    ...end("tool_use"),
  ];
}

const wire: ConformanceWire = {
  contentType: "text/event-stream",
  text: (text) => sse(textReply(text)),
  toolCall: (call) => sse(toolReply(call)),
  truncated: (text) => sse(textReply(text).slice(0, -1)),
  errorBody: (_status, message) => JSON.stringify({ type: "error", error: { type: "invalid_request_error", message } }),
  overloadedBeforeContent: () => sse([start, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }]),
  // No Models API entry: the family table answers (and knows no "conformance-*" model).
  routes: Object.fromEntries(["conformance-model", "conformance-other"].map((id) => [`GET /v1/models/${id}`, { status: 404, body: "{}" }])),
};

runProviderConformance({ describe, it }, { provider: "anthropic", wire, createModel: (settings) => createAnthropicModel({ provider: "anthropic", apiKey: "test-key", ...settings }) });

describe("anthropic over HTTP", () => {
  const server = useScriptedServer(beforeEach, afterEach);

  const model = (extra: Record<string, unknown> = {}) =>
    createAnthropicModel({ provider: "anthropic", model: "claude-test", apiKey: "sk-ant-test", baseUrl: server.url, retryBaseDelayMs: 1, ...extra });
  const streamReply = (events: Record<string, unknown>[]) => ({ headers: { "content-type": "text/event-stream" }, body: sse(events) });

  const adaptiveInfo = {
    id: "claude-test",
    type: "model",
    max_input_tokens: 200000,
    max_tokens: 64000,
    capabilities: {
      effort: { supported: true, low: { supported: true }, medium: { supported: true }, high: { supported: true }, max: { supported: true } },
      image_input: { supported: true },
      pdf_input: { supported: true },
      structured_outputs: { supported: true },
      thinking: { supported: true, types: { adaptive: { supported: true }, enabled: { supported: true } } },
    },
  };

  it("POSTs the request body to /v1/messages with the key and API version headers", async () => {
    server.route("GET", "/v1/models/claude-test", { headers: { "content-type": "application/json" }, body: JSON.stringify(adaptiveInfo) });
    server.reply(streamReply(textReply("ok")));
    await model({ effort: "high", maxTokens: 2048, headers: { "anthropic-beta": "test-beta" } }).chat({
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Hi" },
      ],
    });
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/messages" });
    expect(defined(request).headers).toMatchObject({ "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "anthropic-beta": "test-beta", "content-type": "application/json" });
    expect(defined(request).body).toBe(
      JSON.stringify({
        model: "claude-test",
        max_tokens: 2048,
        system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }],
        messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
        thinking: { type: "adaptive" },
        output_config: { effort: "high" },
        stream: true,
      }),
    );
  });

  it("asks the Models API once per model, only when the request depends on it, with the key", async () => {
    server.route("GET", "/v1/models/claude-test", { headers: { "content-type": "application/json" }, body: JSON.stringify(adaptiveInfo) });
    server.reply(streamReply(textReply("a")), streamReply(textReply("b")), streamReply(textReply("c")));
    const chat = model({ effort: "off" });
    await chat.chat({ messages: [{ role: "user", content: "Hi" }] });
    expect(server.routed).toHaveLength(0);
    chat.changeEffort("low");
    await chat.chat({ messages: [{ role: "user", content: "Hi" }] });
    await chat.chat({ messages: [{ role: "user", content: "Hi" }] });
    expect(server.routed.map((request) => [request.method, request.path, request.headers["x-api-key"]])).toEqual([["GET", "/v1/models/claude-test", "sk-ant-test"]]);
    expect(server.requests.map((request) => request.json().thinking)).toEqual([undefined, { type: "adaptive" }, { type: "adaptive" }]);
  });

  it("weft init's default (claude-sonnet-4-5, effort medium) sends budget thinking over HTTP, whether the Models API answers or not", async () => {
    // The Models API's answer for Sonnet 4.5: thinking by budget only, no effort parameter.
    const sonnet45 = {
      id: "claude-sonnet-4-5-20250929",
      type: "model",
      max_input_tokens: 200000,
      max_tokens: 64000,
      capabilities: {
        effort: { supported: false, low: { supported: false }, medium: { supported: false }, high: { supported: false }, max: { supported: false } },
        image_input: { supported: true },
        pdf_input: { supported: true },
        structured_outputs: { supported: true },
        thinking: { supported: true, types: { adaptive: { supported: false }, enabled: { supported: true } } },
      },
    };
    const expected = JSON.stringify({
      model: "claude-sonnet-4-5",
      max_tokens: 16384,
      messages: [{ role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] }],
      thinking: { type: "enabled", budget_tokens: 8192 },
      stream: true,
    });
    server.route("GET", "/v1/models/claude-sonnet-4-5", { headers: { "content-type": "application/json" }, body: JSON.stringify(sonnet45) });
    server.reply(streamReply(textReply("a")));
    await model({ model: "claude-sonnet-4-5", effort: "medium" }).chat({ messages: [{ role: "user", content: "Hi" }] });
    server.route("GET", "/v1/models/claude-sonnet-4-5", { status: 404, body: "{}" });
    server.reply(streamReply(textReply("b")));
    await model({ model: "claude-sonnet-4-5", effort: "medium" }).chat({ messages: [{ role: "user", content: "Hi" }] });
    expect(server.requests.map((request) => request.body)).toEqual([expected, expected]);
  });

  it("falls back to the family table when the Models API fails, without failing or retrying it, and says nothing to the model", async () => {
    server.route("GET", "/v1/models/claude-sonnet-4-5", { status: 500, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "api_error", message: "down" } }) });
    server.reply(streamReply(textReply("a")), streamReply(textReply("b")));
    const chat = model({ model: "claude-sonnet-4-5", effort: "medium" });
    expect((await chat.chat({ messages: [{ role: "user", content: "Hi" }] })).content).toBe("a");
    await chat.chat({ messages: [{ role: "user", content: "Hi" }] });
    expect(server.routed).toHaveLength(1);
    expect(server.requests.map((request) => request.json().thinking)).toEqual([
      { type: "enabled", budget_tokens: 8192 },
      { type: "enabled", budget_tokens: 8192 },
    ]);
  });

  it("streams a notice event when it had to change the request for the model", async () => {
    server.route("GET", "/v1/models/claude-test", { headers: { "content-type": "application/json" }, body: JSON.stringify(adaptiveInfo) });
    server.reply(streamReply(textReply("ok")));
    const events = await drain(model({ effort: "high" }).stream({ messages: [{ role: "user", content: "Hi" }], temperature: 0.5 }));
    expect(events.filter((event) => event.type === "notice")).toEqual([
      { type: "notice", code: "temperature-dropped", message: "temperature 0.5 was not sent: Anthropic does not take it with thinking on" },
    ]);
  });

  const overloadedEvent = { type: "error", error: { type: "overloaded_error", message: "Overloaded" } };

  it("retries an overloaded_error event that came before any content, like a 529, and streams only the good reply", async () => {
    server.reply(streamReply([start, { type: "ping" }, overloadedEvent]), streamReply(textReply("second try")));
    const events = await drain(model().stream({ messages: [{ role: "user", content: "Hi" }] }));
    expect(events.filter((event) => event.type === "text").map((event) => (event.type === "text" ? event.delta : "")).join("")).toBe("second try");
    expect(server.requests).toHaveLength(2);
  });

  it("never retries an error event once content was streamed: the caller sees the error", async () => {
    const partial = textReply("half an answer").slice(0, 3);
    server.reply(streamReply([...partial, overloadedEvent]), streamReply(textReply("must not be asked")));
    const error = await rejectionOf(drain(model().stream({ messages: [{ role: "user", content: "Hi" }] })));
    expect((error as Error).message).toBe("anthropic: the provider reported an error mid-stream: overloaded_error: Overloaded");
    expect(server.requests).toHaveLength(1);
  });

  it("gives up on repeated overloaded_error events after maxRetries", async () => {
    server.reply(...Array.from({ length: 3 }, () => streamReply([start, overloadedEvent])));
    const error = await rejectionOf(model({ maxRetries: 2 }).chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect(error).toMatchObject({ providerType: "overloaded_error", retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it("does not retry an error event that is not worth it (invalid_request_error)", async () => {
    server.reply(streamReply([start, { type: "error", error: { type: "invalid_request_error", message: "bad" } }]));
    await rejectionOf(model().chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect(server.requests).toHaveLength(1);
  });

  it("finds the API through ANTHROPIC_BASE_URL when no baseUrl is set; the config wins", async () => {
    const saved = process.env.ANTHROPIC_BASE_URL;
    process.env.ANTHROPIC_BASE_URL = `${server.url}/from-env`;
    try {
      server.reply(streamReply(textReply("a")), streamReply(textReply("b")));
      await createAnthropicModel({ provider: "anthropic", model: "claude-test", apiKey: "k" }).chat({ messages: [{ role: "user", content: "Hi" }] });
      await model().chat({ messages: [{ role: "user", content: "Hi" }] });
      expect(server.requests.map((request) => request.path)).toEqual(["/from-env/v1/messages", "/v1/messages"]);
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_BASE_URL;
      else process.env.ANTHROPIC_BASE_URL = saved;
    }
  });

  it("retries a 429 after its Retry-After, then answers", async () => {
    server.reply(
      { status: 429, headers: { "content-type": "application/json", "retry-after": "0" }, body: JSON.stringify({ type: "error", error: { type: "rate_limit_error", message: "Slow down" } }) },
      streamReply(textReply("after the wait")),
    );
    expect((await model().chat({ messages: [{ role: "user", content: "Hi" }] })).content).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
  });

  it("retries 529 overloaded and gives up after maxRetries with Anthropic's error", async () => {
    const overloaded = { status: 529, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }) };
    server.reply(overloaded, overloaded, overloaded);
    const error = await rejectionOf(model({ maxRetries: 2 }).chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 529, retries: 2, providerType: "overloaded_error", providerMessage: "Overloaded" });
    expect(server.requests).toHaveLength(3);
  });

  it("says which key to check on a 401", async () => {
    server.reply({ status: 401, headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }) });
    const error = await rejectionOf(model().chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect((error as Error).message).toBe("anthropic: HTTP 401 authentication_error: invalid x-api-key; the API key was rejected; check ANTHROPIC_API_KEY or the apiKey setting");
  });

  it("turns a mid-stream error event into a typed error after the text so far", async () => {
    server.reply(
      streamReply([
        ...textReply("partial answer").slice(0, 3),
        { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
      ]),
    );
    const seen: string[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of model().stream({ messages: [{ role: "user", content: "Hi" }] })) seen.push(event.type);
      })(),
    );
    expect(seen).toEqual(["text"]);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ providerType: "overloaded_error", providerMessage: "Overloaded", status: undefined });
    expect((error as Error).message).toBe("anthropic: the provider reported an error mid-stream: overloaded_error: Overloaded");
  });

  it("fails on malformed JSON in a chunk, naming the provider", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: [...sse([start]), 'event: content_block_start\ndata: {"type":"content_block_start",\n\n'] });
    const error = await rejectionOf(model().chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toMatch(/^anthropic: malformed JSON in the response \(.+\): \{"type":"content_block_start",$/);
  });

  it("fails with the idle timeout when the stream goes quiet, and hangs up", async () => {
    server.reply({ ...streamReply(textReply("slow").slice(0, 3)), hang: true });
    const error = await rejectionOf(drain(model({ maxRetries: 0, idleTimeoutMs: 300 }).stream({ messages: [{ role: "user", content: "Hi" }] })));
    expect((error as Error).message).toBe(
      "anthropic: no data from the provider for 300 ms, so the request was dropped; try again, or raise idleTimeoutMs if the model is slow to start",
    );
    await server.disconnected(0);
  });

  it("fails a stream cut before message_stop, saying so", async () => {
    server.reply(streamReply(textReply("cut").slice(0, -1)));
    const error = await rejectionOf(model().chat({ messages: [{ role: "user", content: "Hi" }] }));
    expect((error as Error).message).toBe("anthropic: the response stream ended before message_stop: the reply is incomplete (the connection may have dropped); try again");
  });

  it("keeps tool input that is not valid JSON on the call for the agent to answer, instead of failing the reply", async () => {
    const events = toolReply({ id: "toolu_9", name: "lookup", arguments: { q: "x" } });
    (events[3] as { delta: { partial_json: string } }).delta.partial_json = '"x"'; // the closing brace never comes
    server.reply(streamReply(events));
    const reply = await model().chat({ messages: [{ role: "user", content: "Hi" }] });
    expect(reply.toolCalls).toEqual([
      { id: "toolu_9", name: "lookup", arguments: {}, invalidArguments: { text: '{"q":"x"', problem: "not valid JSON: Expected ',' or '}' after property value in JSON at position 8" } },
    ]);
  });

  it("reads info() from GET /v1/models/{id} once, and says when the context window is unknown", async () => {
    server.reply(
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "claude-test", type: "model", max_input_tokens: 200000 }) },
      { headers: { "content-type": "application/json" }, body: JSON.stringify({ id: "claude-old", type: "model" }) },
    );
    const chat = model({ models: ["claude-old"] });
    expect(await chat.info()).toEqual({ provider: "anthropic", model: "claude-test", contextWindow: 200000 });
    expect(await chat.info()).toEqual({ provider: "anthropic", model: "claude-test", contextWindow: 200000 });
    chat.changeModel("claude-old");
    await expect(chat.info()).rejects.toThrow(
      'anthropic: the context window of model "claude-old" is unknown: the provider does not report it; set contextWindow in the model settings',
    );
    expect(server.requests.map((request) => [request.method, request.path, request.headers["x-api-key"]])).toEqual([
      ["GET", "/v1/models/claude-test", "sk-ant-test"],
      ["GET", "/v1/models/claude-old", "sk-ant-test"],
    ]);
  });
});

describe("anthropic plugin", () => {
  it("registers the anthropic provider; createModel takes plugin options as defaults and the spec over them", async () => {
    const server = await startScriptedServer();
    server.route("GET", "/v1/models/claude-a", { status: 404, body: "{}" });
    const kernel = await createTestKernel([[anthropic, { baseUrl: server.url, apiKey: "from-options", models: ["claude-b"], effort: "low" }]]);
    try {
      expect(kernel.providers()).toContain("anthropic");
      const chat = await kernel.createModel("anthropic/claude-a");
      expect([chat.provider, chat.model, chat.effort, [...chat.models]]).toEqual(["anthropic", "claude-a", "low", ["claude-b", "claude-a"]]);
      server.reply({ headers: { "content-type": "text/event-stream" }, body: sse(textReply("Hello from the kernel")) });
      expect((await chat.chat({ messages: [{ role: "user", content: "Hi" }] })).content).toBe("Hello from the kernel");
      expect(defined(server.requests[0]).headers["x-api-key"]).toBe("from-options");
      const other = await kernel.createModel({ provider: "anthropic", model: "claude-b", effort: "max", apiKey: "from-spec" });
      expect([other.model, other.effort]).toEqual(["claude-b", "max"]);
    } finally {
      await kernel.close();
      await server.close();
    }
  });

  it("fails fast when no key is configured, saying where to put one", async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    const kernel = await createTestKernel([anthropic]);
    try {
      await expect(kernel.createModel("anthropic/claude-a")).rejects.toThrow(
        new WeftError("CREDENTIAL_MISSING", "anthropic: no API key; set ANTHROPIC_API_KEY in the environment, or apiKey in the plugin options (weft.config.yaml) or the model spec"),
      );
      process.env.ANTHROPIC_API_KEY = "from-env";
      expect((await kernel.createModel("anthropic/claude-a")).model).toBe("claude-a");
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      await kernel.close();
    }
  });

  it("rejects bad options when the plugin loads", async () => {
    await expect(createTestKernel([[anthropic, { maxRetries: -1 }]])).rejects.toMatchObject({ code: "PLUGIN_OPTIONS_INVALID" });
  });
});
