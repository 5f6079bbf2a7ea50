import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatRequest, Message } from "@weft/sdk";
import { scriptedModel, type ScriptedTurn } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { freezeMessage } from "./frozen-messages.js";
import type { SessionState } from "./session-state.js";
import { memorySessionStore } from "./session-store.js";
import { estimateMessageTokens } from "./token-estimate.js";
import { add } from "../test-fixtures/add-tool.js";

const newKernel = testKernels(afterEach);

describe("the transcript is frozen messages", () => {
  it("takes given messages as they are and freezes them, so a change in place fails loudly", async () => {
    const earlier: Message[] = [
      { role: "user", content: "What is 1 + 1?" },
      { role: "assistant", content: "", toolCalls: [{ id: "c1", name: "add", arguments: { a: 1, b: 1 } }] },
      { role: "tool", toolCallId: "c1", toolName: "add", content: "2", parts: [{ type: "text", text: "2" }] },
      { role: "assistant", content: "2" },
    ];
    const agent = createAgent({ model: scriptedModel(["4"]), kernel: newKernel() });
    await agent.startSession({ prompt: "Be brief.", messages: earlier, tools: [add] });
    for (const message of earlier) expect(Object.isFrozen(message)).toBe(true);
    const [, call, result] = earlier;
    expect(call?.role === "assistant" && Object.isFrozen(call.toolCalls) && Object.isFrozen(call.toolCalls?.[0])).toBe(true);
    expect(result?.role === "tool" && Object.isFrozen(result.parts) && Object.isFrozen(result.parts?.[0])).toBe(true);
    // The arguments stay the model's values, as tools read them.
    expect(call?.role === "assistant" && Object.isFrozen(call.toolCalls?.[0]?.arguments)).toBe(false);
    expect(() => {
      (earlier[0] as { content: string }).content = "changed";
    }).toThrow(TypeError);

    await agent.process("And 2 + 2?");
    // What the agent hands out is a copy the caller may change.
    const transcript = agent.messages();
    expect(transcript.slice(1, 5)).toEqual(earlier);
    (transcript[1] as { content: string }).content = "changed";
    expect(agent.messages()[1]?.content).toBe("What is 1 + 1?");
  });

  it("freezes what a turn adds: the input, the replies and the tool results", async () => {
    const unfrozen: string[] = [];
    const seen = (request: ChatRequest, reply: ScriptedTurn): ScriptedTurn => {
      for (const message of request.messages) if (message.role !== "system" && !Object.isFrozen(message)) unfrozen.push(message.role);
      return reply;
    };
    const model = scriptedModel([(request) => seen(request, { toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }), (request) => seen(request, "5")]);
    const agent = createAgent({ model, kernel: newKernel() });
    await agent.startSession({ tools: [add] });
    await agent.process("What is 2 + 3?");
    expect(model.requests[1]?.messages.map((message) => message.role)).toEqual(["user", "assistant", "tool"]);
    expect(unfrozen).toEqual([]);
  });

  it("opens every call with one frozen system message while the prompt stays the same, and a new one when it changes", async () => {
    const systems: Message[] = [];
    const seen = (request: ChatRequest, reply: ScriptedTurn): ScriptedTurn => {
      if (request.messages[0]) systems.push(request.messages[0]);
      return reply;
    };
    const model = scriptedModel([(request) => seen(request, { toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }), (request) => seen(request, "5"), (request) => seen(request, "6")]);
    const kernel = newKernel();
    let section = "Numbers only.";
    kernel.scope("test prompt").hooks.prompt.tap((sections) => [...sections, section]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ prompt: "Be brief.", tools: [add] });
    await agent.process("What is 2 + 3?");
    section = "Words only.";
    await agent.process("And 3 + 3?");
    expect(systems.map((message) => message.content)).toEqual(["Be brief.\n\nNumbers only.", "Be brief.\n\nNumbers only.", "Be brief.\n\nWords only."]);
    expect(systems.every((message) => Object.isFrozen(message))).toBe(true);
    expect(systems[1]).toBe(systems[0]);
    expect(systems[2]).not.toBe(systems[1]);
  });
});

describe("what is derived from a frozen message is kept by identity", () => {
  const state = (messages: Message[]): SessionState => ({ version: 1, sessionId: "s", messages });

  it("the memory store writes a frozen message's JSON once, and an unfrozen one at every save", async () => {
    const frozen = freezeMessage<Message>({ role: "user", content: "kept" });
    const open: Message = { role: "assistant", content: "first" };
    const store = memorySessionStore();
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      store.save("s", state([frozen, open]));
      // The rest of the state, then each message.
      expect(stringify).toHaveBeenCalledTimes(3);
      stringify.mockClear();
      (open as { content: string }).content = "second";
      store.save("s", state([frozen, open]));
      expect(stringify.mock.calls.map(([value]) => value)).toEqual([expect.objectContaining({ sessionId: "s" }), open]);
    } finally {
      stringify.mockRestore();
    }
    const loaded = await store.get("s");
    expect(loaded).toEqual(state([{ role: "user", content: "kept" }, { role: "assistant", content: "second" }]));
    // What a get returns is the caller's own: changing it changes nothing stored.
    loaded?.messages.pop();
    expect((await store.get("s"))?.messages).toHaveLength(2);
  });

  it("the token estimate of a frozen message is measured once; an unfrozen one follows its changes", () => {
    const call = { id: "c1", name: "add", arguments: { a: 1, b: 1 } };
    const frozen = freezeMessage<Message>({ role: "assistant", content: "", toolCalls: [call] });
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      const first = estimateMessageTokens(frozen);
      expect(estimateMessageTokens(frozen)).toBe(first);
      expect(stringify).toHaveBeenCalledTimes(1);
    } finally {
      stringify.mockRestore();
    }
    const open: Message = { role: "user", content: "four" };
    const before = estimateMessageTokens(open);
    open.content = "four".repeat(100);
    expect(estimateMessageTokens(open)).toBe(before + 99);
  });
});
