import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError, type ToolCall } from "@weft/sdk";
import { defined, createTestKernel, runProviderConformance, startScriptedServer, useScriptedServer, type ConformanceWire, drain, rejectionOf } from "@weft/testing";
import ollama from "./index.js";
import { createOllamaModel, ollamaBaseUrl } from "./ollama-model.js";

const line = (message: Record<string, unknown>, extra: object = {}) => `${JSON.stringify({ model: "m", created_at: "2025-07-07T20:22:19Z", message: { role: "assistant", ...message }, done: false, ...extra })}\n`;
const finalLine = (doneReason = "stop") => `${JSON.stringify({ model: "m", created_at: "2025-07-07T20:22:20Z", message: { role: "assistant", content: "" }, done: true, done_reason: doneReason, prompt_eval_count: 20, eval_count: 5 })}\n`;

function textLines(text: string): string[] {
  const half = Math.ceil(text.length / 2);
  return [line({ content: text.slice(0, half) }), line({ content: text.slice(half) }), finalLine()];
}

/** `/api/show` answers in the documented shape, by model: what a local Ollama says of each. */
const SHOWN: Record<string, object> = {
  qwen3: { capabilities: ["completion", "tools", "thinking"], model_info: { "general.architecture": "qwen3", "qwen3.context_length": 40960 } },
  "gpt-oss:20b": { capabilities: ["completion", "tools", "thinking"], model_info: { "general.architecture": "gptoss", "gptoss.context_length": 131072 } },
  "llama3.2:3b": { capabilities: ["completion", "tools"], model_info: { "general.architecture": "llama", "llama.context_length": 131072 } },
  "llava:7b": { capabilities: ["completion", "vision"], model_info: { "general.architecture": "llama", "llama.context_length": 4096 } },
};
const showRoute = (request: { json(): any }) => {
  const shown = SHOWN[String(request.json().model)];
  return shown
    ? { headers: { "content-type": "application/json" }, body: JSON.stringify(shown) }
    : { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: `model '${String(request.json().model)}' not found` }) };
};

const wire: ConformanceWire = {
  contentType: "application/x-ndjson",
  text: textLines,
  toolCall: (call: ToolCall) => [line({ content: "", tool_calls: [{ id: call.id, function: { name: call.name, arguments: call.arguments } }] }), finalLine()],
  truncated: (text) => textLines(text).slice(0, -1),
  errorBody: (_status, message) => JSON.stringify({ error: message }),
  routes: { "POST /api/show": { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "model 'conformance-model' not found" }) } },
};

runProviderConformance({ describe, it }, { provider: "ollama", wire, createModel: (settings) => createOllamaModel({ provider: "ollama", ...settings }) });

describe("ollama over HTTP", () => {
  const server = useScriptedServer(beforeEach, afterEach, (server) => server.route("POST", "/api/show", showRoute));

  const model = (extra: Record<string, unknown> = {}) => createOllamaModel({ provider: "ollama", model: "qwen3", baseUrl: server.url, retryBaseDelayMs: 1, ...extra });
  const ndjson = (lines: string[]) => ({ headers: { "content-type": "application/x-ndjson" }, body: lines });
  const hi = { messages: [{ role: "user" as const, content: "Hi" }] };

  it("POSTs the body to /api/chat with no key", async () => {
    server.reply(ndjson(textLines("ok")));
    await model({ effort: "low" }).chat(hi);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/api/chat" });
    expect(defined(request).headers.authorization).toBeUndefined();
    expect(defined(request).body).toBe(JSON.stringify({ model: "qwen3", messages: [{ role: "user", content: "Hi" }], think: true, stream: true }));
    expect(server.routed.map((request) => [request.method, request.path, request.body])).toEqual([["POST", "/api/show", '{"model":"qwen3"}']]);
  });

  it("sends think by what /api/show lists: a level for GPT-OSS, true for other thinking models, false for the rest and for effort off", async () => {
    const thinkOf = async (name: string, effort: string) => {
      server.reply(ndjson(textLines("ok")));
      await model({ model: name, effort }).chat(hi);
      return defined(server.requests.at(-1)).json().think;
    };
    expect(await thinkOf("gpt-oss:20b", "max")).toBe("high");
    expect(await thinkOf("gpt-oss:20b", "low")).toBe("low");
    expect(await thinkOf("qwen3", "high")).toBe(true);
    expect(await thinkOf("qwen3", "off")).toBe(false);
    expect(await thinkOf("llama3.2:3b", "high")).toBe(false);
    expect(await thinkOf("llama3.2:3b", "off")).toBe(false);
    // A server that cannot say: effort as asked.
    expect(await thinkOf("unknown:1b", "medium")).toBe("medium");
    expect(await thinkOf("unknown:1b", "off")).toBe(false);
  });

  it("says so in a notice when the model does not think, and asks /api/show once per model", async () => {
    server.reply(ndjson(textLines("a")), ndjson(textLines("b")));
    const chat = model({ model: "llama3.2:3b", effort: "high" });
    const events = await drain(chat.stream(hi));
    await chat.chat(hi);
    expect(events.filter((event) => event.type === "notice")).toEqual([{ type: "notice", code: "effort-unsupported", message: "effort high was not sent: the model does not list thinking" }]);
    expect(server.routed).toHaveLength(1);
  });

  it("streams thinking as reasoning and keeps it as a block", async () => {
    server.reply(ndjson([line({ content: "", thinking: "Let me " }), line({ content: "", thinking: "think." }), line({ content: "Answer." }), finalLine()]));
    const events = await drain(model({ effort: "high" }).stream(hi));
    expect(events.map((event) => (event.type === "reasoning" || event.type === "text" ? `${event.type}:${event.delta}` : event.type))).toEqual([
      "reasoning:Let me ",
      "reasoning:think.",
      "text:Answer.",
      "usage",
      "done",
    ]);
    expect(events.at(-1)).toMatchObject({ message: { content: "Answer.", reasoning: [{ provider: "ollama", text: "Let me think." }], stopReason: "stop" } });
  });

  it("retries a 503 after its Retry-After, then answers", async () => {
    server.reply({ status: 503, headers: { "retry-after": "0" }, body: JSON.stringify({ error: "server busy" }) }, ndjson(textLines("after the wait")));
    expect((await model().chat(hi)).content).toBe("after the wait");
    expect(server.requests).toHaveLength(2);
  });

  it("fails a missing model at once with Ollama's message", async () => {
    server.reply({ status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: 'model "qwen9" not found, try pulling it first' }) });
    const error = await rejectionOf(model().chat(hi));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe('ollama: HTTP 404 model "qwen9" not found, try pulling it first; not found; check baseUrl and the model name');
    expect(server.requests).toHaveLength(1);
  });

  it("fails on a malformed JSON line, naming the provider", async () => {
    server.reply(ndjson([line({ content: "Hel" }), '{"message": {"content": "lo"\n']));
    const error = await rejectionOf(model().chat(hi));
    expect((error as Error).message).toMatch(/^ollama: malformed JSON in the response \(.+\): \{"message": \{"content": "lo"$/);
  });

  it("fails a stream that ends without its done line", async () => {
    server.reply(ndjson(textLines("cut").slice(0, -1)));
    const error = await rejectionOf(model().chat(hi));
    expect((error as Error).message).toBe('ollama: the response stream ended before its "done": true line: the reply is incomplete (the connection may have dropped); try again');
  });

  it("fails with the idle timeout when the stream goes quiet, and hangs up", async () => {
    server.reply({ ...ndjson([line({ content: "slow" })]), hang: true });
    const error = await rejectionOf(drain(model({ maxRetries: 0, idleTimeoutMs: 300 }).stream(hi)));
    expect((error as Error).message).toMatch(/^ollama: no data from the provider for 300 ms/);
    await server.disconnected(0);
  });

  it("reads info() from POST /api/show (<arch>.context_length), once", async () => {
    const chat = model();
    expect(await chat.info()).toEqual({ provider: "ollama", model: "qwen3", contextWindow: 40960 });
    expect(await chat.info()).toEqual({ provider: "ollama", model: "qwen3", contextWindow: 40960 });
    expect(server.routed.map((request) => [request.method, request.path, request.body])).toEqual([["POST", "/api/show", '{"model":"qwen3"}']]);
  });

  it("says when /api/show does not give the context length", async () => {
    server.route("POST", "/api/show", { headers: { "content-type": "application/json" }, body: JSON.stringify({ model_info: { "general.architecture": "llama" } }) });
    await expect(model().info()).rejects.toThrow('ollama: the context window of model "qwen3" is unknown');
  });

  it("reports numCtx as the context window, and sends it as options.num_ctx", async () => {
    server.reply(ndjson(textLines("ok")));
    const chat = model({ numCtx: 16384 });
    expect(await chat.info()).toEqual({ provider: "ollama", model: "qwen3", contextWindow: 16384 });
    await chat.chat(hi);
    expect(server.requests.map((request) => request.path)).toEqual(["/api/chat"]);
    expect(defined(server.requests[0]).json().options).toEqual({ num_ctx: 16384 });
  });

  it("finds the server through OLLAMA_HOST when no baseUrl is set", async () => {
    const saved = process.env.OLLAMA_HOST;
    process.env.OLLAMA_HOST = server.url.replace("http://", "");
    try {
      server.reply(ndjson(textLines("via OLLAMA_HOST")));
      expect((await createOllamaModel({ provider: "ollama", model: "qwen3" }).chat(hi)).content).toBe("via OLLAMA_HOST");
    } finally {
      if (saved === undefined) delete process.env.OLLAMA_HOST;
      else process.env.OLLAMA_HOST = saved;
    }
  });
});

describe("ollamaBaseUrl", () => {
  it("reads OLLAMA_HOST the way Ollama does: http and port 11434 unless given", () => {
    expect(ollamaBaseUrl("127.0.0.1")).toBe("http://127.0.0.1:11434");
    expect(ollamaBaseUrl("gpu-box:8080")).toBe("http://gpu-box:8080");
    expect(ollamaBaseUrl("http://gpu-box")).toBe("http://gpu-box:11434");
    expect(ollamaBaseUrl("https://ollama.example.com/")).toBe("https://ollama.example.com");
    expect(ollamaBaseUrl("[::1]")).toBe("http://[::1]:11434");
    expect(ollamaBaseUrl("http://[::1]:9999")).toBe("http://[::1]:9999");
  });
});

describe("ollama plugin", () => {
  it("registers ollama; createModel takes plugin options as defaults", async () => {
    const server = await startScriptedServer();
    server.route("POST", "/api/show", showRoute);
    const kernel = await createTestKernel([[ollama, { baseUrl: server.url, keepAlive: 0, effort: "medium" }]]);
    try {
      expect(kernel.providers()).toContain("ollama");
      const chat = await kernel.createModel("ollama/llama3.2:3b");
      expect([chat.provider, chat.model, chat.effort]).toEqual(["ollama", "llama3.2:3b", "medium"]);
      server.reply({ headers: { "content-type": "application/x-ndjson" }, body: textLines("Hello from the kernel") });
      expect(await chat.chat({ messages: [{ role: "user", content: "Hi" }] })).toMatchObject({ content: "Hello from the kernel", model: "ollama/llama3.2:3b" });
      expect(defined(server.requests[0]).json()).toMatchObject({ model: "llama3.2:3b", keep_alive: 0, think: false });
    } finally {
      await kernel.close();
      await server.close();
    }
  });
});
