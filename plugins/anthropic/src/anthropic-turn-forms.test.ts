import { describe, expect, it } from "vitest";
import type { ChatRequest, Effort, Message } from "@weft/sdk";
import { anthropicRequest, anthropicRequestBody } from "./anthropic-request.js";

const call = { model: "claude-sonnet-4-5", effort: "off" as Effort, maxTokens: 1024, promptCaching: true };
const weather = { name: "get_weather", description: "Weather for a city", inputSchema: { type: "object", properties: { city: { type: "string" } } } };
/** As an agent's transcript holds them: frozen, never changed (core's frozen-messages.ts). */
const frozen = <M extends Message>(message: M): M => Object.freeze(message);
const body = (messages: Message[], tools = [weather]) => anthropicRequestBody({ messages, tools }, call);
const EPHEMERAL = { type: "ephemeral" };

const question = frozen<Message>({ role: "user", content: "Weather in Paris and Rome?" });
const calls = frozen<Message>({
  role: "assistant",
  content: "",
  reasoning: [{ provider: "anthropic", text: "Both at once.", signature: "sig-1" }],
  toolCalls: [
    { id: "toolu_1", name: "get_weather", arguments: { city: "Paris" } },
    { id: "toolu_2", name: "get_weather", arguments: { city: "Rome" } },
  ],
});
const paris = frozen<Message>({ role: "tool", toolCallId: "toolu_1", toolName: "get_weather", content: "18°C" });
const rome = frozen<Message>({ role: "tool", toolCallId: "toolu_2", toolName: "get_weather", content: "24°C" });
const answer = frozen<Message>({ role: "assistant", content: "Paris 18°C, Rome 24°C." });
const next = frozen<Message>({ role: "user", content: "And tomorrow?" });

/** Every block of a body that carries cache_control, as `turn/block` (and `tools`, `system`). */
function breakpoints(request: ReturnType<typeof body>): string[] {
  const marked: string[] = [];
  if (request.tools?.some((tool) => tool.cache_control)) marked.push("tools");
  if (request.system?.some((block) => block.cache_control)) marked.push("system");
  for (const [at, turn] of request.messages.entries()) {
    for (const [index, block] of turn.content.entries()) if ("cache_control" in block) marked.push(`${at}/${index}`);
  }
  return marked;
}

describe("turns of frozen messages", () => {
  it("are built once and shared by the requests that follow; an unfrozen message is converted every time", () => {
    const first = body([question, answer, next]).messages;
    const second = body([question, answer, next]).messages;
    expect(second[0]).toBe(first[0]);
    expect(second[1]).toBe(first[1]);
    const open: Message = { role: "assistant", content: "Sunny." };
    expect(body([question, open, next]).messages[1]).not.toBe(body([question, open, next]).messages[1]);
  });

  it("merge parallel tool results into a new turn, leaving each result's own turn as it was", () => {
    const both = body([question, calls, paris, rome, answer]).messages;
    expect(both[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "18°C" },
        { type: "tool_result", tool_use_id: "toolu_2", content: "24°C" },
      ],
    });
    // Had the merge added to the first result's shared turn, this request would carry both results.
    expect(body([question, calls, paris, answer]).messages[2]).toEqual({ role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "18°C" }] });
    expect(JSON.stringify(body([question, calls, paris, rome, answer]).messages)).toBe(JSON.stringify(both));
  });

  it("keep no cache breakpoint of an earlier request: each body marks its last block, within Anthropic's four", () => {
    const system = { role: "system", content: "Be brief." } as const;
    const growing: Message[][] = [
      [system, question],
      [system, question, calls, paris, rome],
      [system, question, calls, paris, rome, answer, next],
      [system, question, calls, paris, rome, answer, next],
    ];
    const marks = growing.map((messages) => breakpoints(body(messages)));
    expect(marks).toEqual([
      ["tools", "system", "0/0"],
      ["tools", "system", "2/1"],
      ["tools", "system", "4/0"],
      ["tools", "system", "4/0"],
    ]);
    // The shared turns themselves never carry a mark: the second request's tool results are unmarked in the third.
    const third = body(growing[2] ?? []);
    expect(third.messages[2]?.content).toEqual([
      { type: "tool_result", tool_use_id: "toolu_1", content: "18°C" },
      { type: "tool_result", tool_use_id: "toolu_2", content: "24°C" },
    ]);
    expect(third.messages[4]).toEqual({ role: "user", content: [{ type: "text", text: "And tomorrow?", cache_control: EPHEMERAL }] });
    expect(body([question]).messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "Weather in Paris and Rome?", cache_control: EPHEMERAL }] });
    // The thinking block is replayed as it came, and never marked.
    expect(body([question, calls]).messages[1]?.content).toEqual([
      { type: "thinking", thinking: "Both at once.", signature: "sig-1" },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Rome" }, cache_control: EPHEMERAL },
    ]);
  });

  it("that needed a notice give it on every request", () => {
    const picture = frozen<Message>({ role: "user", content: "What is this?", parts: [{ type: "text", text: "What is this?" }, { type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }] });
    const capabilities = { thinking: "none", effortLevels: [], reasoning: false, images: false, documents: false, structuredOutput: false } as const;
    for (let request = 0; request < 2; request++) {
      const { notices } = anthropicRequest({ messages: [picture] } as ChatRequest, { ...call, capabilities });
      expect(notices.map((notice) => notice.code)).toEqual(["image-dropped"]);
    }
  });
});
