import { describe, expect, it } from "vitest";
import type { Message } from "@weft/sdk";
import { chatCompletionsRequest, type ChatCompletionsCall } from "./chat-completions-request.js";

const call: ChatCompletionsCall = { provider: "openrouter", model: "anthropic/claude-sonnet-4", effort: "off", effortStyle: "openrouter", maxTokensField: "max_tokens" };
/** As an agent's transcript holds them: frozen, never changed (core's frozen-messages.ts). */
const frozen = <M extends Message>(message: M): M => Object.freeze(message);
const wireMessages = (messages: Message[], options: Partial<ChatCompletionsCall> = {}) =>
  chatCompletionsRequest({ messages }, { ...call, ...options }).body.messages as Record<string, unknown>[];

describe("wire forms of frozen messages", () => {
  it("are built once and shared by the requests that follow", () => {
    const question = frozen<Message>({ role: "user", content: "Weather in Paris?" });
    const answer = frozen<Message>({ role: "assistant", content: "18°C." });
    const first = wireMessages([{ role: "system", content: "Be brief." }, question, answer]);
    const second = wireMessages([{ role: "system", content: "Be brief." }, question, answer]);
    expect(second[1]).toBe(first[1]);
    expect(second[2]).toBe(first[2]);
    // A message that is not frozen may change between calls: it is converted every time.
    const open: Message = { role: "user", content: "Weather in Paris?" };
    expect(wireMessages([open])[0]).not.toBe(wireMessages([open])[0]);
  });

  it("are rebuilt for another provider, whose reasoning is not replayed", () => {
    const reply = frozen<Message>({ role: "assistant", content: "Sunny.", reasoning: [{ provider: "openrouter", details: [{ type: "reasoning.text", text: "look" }] }] });
    expect(wireMessages([reply])[0]).toEqual({ role: "assistant", content: "Sunny.", reasoning_details: [{ type: "reasoning.text", text: "look" }] });
    expect(wireMessages([reply], { provider: "openai-compatible" })[0]).toEqual({ role: "assistant", content: "Sunny." });
  });

  it("keep no cache breakpoint of an earlier request: only the newest text is marked", () => {
    const system = { role: "system", content: "Be brief." } as const;
    const first = frozen<Message>({ role: "user", content: "One?" });
    const reply = frozen<Message>({ role: "assistant", content: "1." });
    const next = frozen<Message>({ role: "user", content: "Two?" });
    const breakpoint = (text: string) => [{ type: "text", text, cache_control: { type: "ephemeral" } }];
    expect(wireMessages([system, first], { cacheControl: true })).toEqual([
      { role: "system", content: breakpoint("Be brief.") },
      { role: "user", content: breakpoint("One?") },
    ]);
    expect(wireMessages([system, first, reply, next], { cacheControl: true })).toEqual([
      { role: "system", content: breakpoint("Be brief.") },
      { role: "user", content: "One?" },
      { role: "assistant", content: "1." },
      { role: "user", content: breakpoint("Two?") },
    ]);
  });

  it("of a frozen tool list are built once: the tools of a session's calls are mapped on its first call only, into a plain list per body", () => {
    const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
    const tools = Object.freeze([Object.freeze(weather)]);
    const wireTools = () => chatCompletionsRequest({ messages: [{ role: "user", content: "Paris?" }], tools }, call).body.tools;
    const first = wireTools();
    expect(first).toEqual([{ type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: weather.inputSchema } }]);
    const second = wireTools() as unknown[];
    expect(second[0]).toBe((first as unknown[])[0]);
    expect(Object.isFrozen(second[0])).toBe(true);
    // The list itself is each body's own, and not frozen: V8 serialises a body holding a frozen array slowly.
    expect(second).not.toBe(first);
    expect(Object.isFrozen(second)).toBe(false);
    // A list that is not frozen may change between calls: it is mapped every time.
    const open = [weather];
    const request = { messages: [{ role: "user" as const, content: "Paris?" }], tools: open };
    expect(chatCompletionsRequest(request, call).body.tools).not.toBe(chatCompletionsRequest(request, call).body.tools);
  });

  it("that needed a notice give it on every request", () => {
    const picture = frozen<Message>({ role: "user", content: "What is this?", parts: [{ type: "text", text: "What is this?" }, { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }] });
    const capabilities = { reasoning: false, images: false, documents: true, structuredOutput: false };
    for (let request = 0; request < 2; request++) {
      const { notices } = chatCompletionsRequest({ messages: [picture] }, { ...call, capabilities });
      expect(notices.map((notice) => notice.code)).toEqual(["image-dropped"]);
    }
  });
});
