import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError, type AssistantMessage, type StreamEvent } from "@weft/sdk";
import { defined, doneMessage, drain, useScriptedServer } from "@weft/sdk/testing";
import { createOllamaModel } from "./ollama-model.js";

// Ollama's documented /api/chat responses, vendored in the repo (fixtures/providers/ollama).
const fixtures = new URL("../../../fixtures/providers/ollama/", import.meta.url);
const examples = JSON.parse(readFileSync(new URL("docs-api-chat-examples.json", fixtures), "utf8")) as { example: string; body: object }[];
const groups = new Map<string, object[]>();
for (const { example, body } of examples) groups.set(example, [...(groups.get(example) ?? []), body]);

// A local model reports its cost, which is nothing.
const stats = (promptTokens: number, outputTokens: number) => ({ promptTokens, outputTokens, totalTokens: promptTokens + outputTokens, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 });
const reply = (content: string, extra: Partial<AssistantMessage>): AssistantMessage => ({ role: "assistant", content, ...extra, model: "ollama/test-model" });
const SYNTHETIC = expect.stringMatching(/^ollama_call_[0-9a-f]{16}$/);

/** What each documented example, replayed as an NDJSON stream, must come out as. */
const expected: Record<string, AssistantMessage> = {
  "Chat request (Streaming)": reply("The", { stats: stats(26, 282) }),
  "Chat request (Streaming with tools)": reply("", { toolCalls: [{ id: SYNTHETIC, name: "get_weather", arguments: { city: "Tokyo" } }], stats: stats(169, 15), stopReason: "stop" }),
  "Chat request (No streaming)": reply("Hello! How are you today?", { stats: stats(26, 298) }),
  "Chat request (No streaming, with tools)": reply("", { toolCalls: [{ id: SYNTHETIC, name: "get_weather", arguments: { city: "Tokyo" } }], stats: stats(169, 18), stopReason: "stop" }),
  "Chat request (Structured outputs)": reply('{"age": 22, "available": false}', { stats: stats(34, 12), stopReason: "stop" }),
  "Chat request (With History)": reply("The", { stats: stats(61, 468) }),
  "Chat request (With history, with tools)": reply("The current temperature in Toronto is 11°C.", { stats: stats(94, 11), stopReason: "stop" }),
  "Chat request (with images)": reply(
    " The image features a cute, little pig with an angry facial expression. It's wearing a heart on its shirt and is waving in the air. This scene appears to be part of a drawing or sketching project.",
    { stats: stats(26, 83) },
  ),
  "Chat request (Reproducible outputs)": reply("Hello! How are you today?", { stats: stats(26, 298) }),
  "Chat request (with tools)": reply("", {
    toolCalls: [{ id: SYNTHETIC, name: "get_current_weather", arguments: { format: "celsius", location: "Paris, FR" } }],
    stats: stats(122, 33),
    stopReason: "stop",
  }),
};

describe("ollama: documented traffic replayed over HTTP", () => {
  const server = useScriptedServer(beforeAll, afterAll, (server) => server.route("POST", "/api/show", { status: 404, headers: { "content-type": "application/json" }, body: JSON.stringify({ error: "model 'test-model' not found" }) }));

  async function replay(body: string, contentType = "application/x-ndjson"): Promise<StreamEvent[]> {
    server.reply({ headers: { "content-type": contentType }, body });
    const model = createOllamaModel({ provider: "ollama", model: "test-model", baseUrl: server.url });
    return drain(model.stream({ messages: [{ role: "user", content: "Hi" }] }));
  }

  it("covers every documented example", () => {
    expect([...groups.keys()].sort()).toEqual(Object.keys(expected).sort());
  });

  it.each(Object.keys(expected))("%s replays to the exact message", async (name) => {
    const lines = defined(groups.get(name));
    const events = await replay(lines.map((line) => `${JSON.stringify(line)}\n`).join(""));
    const message = doneMessage(events);
    expect(message).toEqual(expected[name]);
    expect(events.filter((event) => event.type === "text").map((event) => event.delta).join("")).toBe(message.content);
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.call)).toEqual(message.toolCalls ?? []);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
  });

  it("a non-streamed answer (one JSON object, application/json) reads the same", async () => {
    const [body] = defined(groups.get("Chat request (No streaming)"));
    expect(doneMessage(await replay(JSON.stringify(body, null, 2), "application/json"))).toEqual(expected["Chat request (No streaming)"]);
  });

  it("makes up stable call ids: the same reply gives the same id, another reply another", async () => {
    const ids = async (name: string) => doneMessage(await replay(defined(groups.get(name)).map((line) => `${JSON.stringify(line)}\n`).join(""))).toolCalls?.map((call) => call.id);
    const first = await ids("Chat request (Streaming with tools)");
    expect(await ids("Chat request (Streaming with tools)")).toEqual(first);
    expect(await ids("Chat request (No streaming, with tools)")).not.toEqual(first);
  });

  it("docs-generate-midstream-error.ndjson: an error line after some output (HTTP 200) fails the call", async () => {
    const body = readFileSync(new URL("docs-generate-midstream-error.ndjson", fixtures), "utf8");
    const error = await replay(body).then(
      () => expect.fail("a mid-stream error must fail"),
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: "ollama", providerMessage: "an error was encountered while running the model", status: undefined });
    expect((error as Error).message).toBe("ollama: the provider reported an error mid-stream: an error was encountered while running the model");
  });
});
