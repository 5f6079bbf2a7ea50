import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssistantMessage, StreamEvent } from "@weft/sdk";
import { defined, doneMessage, drain, useScriptedServer } from "@weft/sdk/testing";
import { createAnthropicModel } from "./anthropic-model.js";

// Recorded Messages API traffic, vendored in the repo (see fixtures/providers/README.md).
const fixtures = new URL("../../../fixtures/providers/anthropic/", import.meta.url);
const fixture = (name: string) => readFileSync(new URL(name, fixtures), "utf8");

/** A .chunks.txt file framed as the wire SSE it was recorded from. */
function framedChunks(name: string): string {
  return fixture(name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => `event: ${JSON.parse(line).type}\ndata: ${line}\n\n`)
    .join("");
}

const stats = (promptTokens: number, outputTokens: number, extra: object = {}) => ({
  promptTokens,
  outputTokens,
  totalTokens: promptTokens + outputTokens,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  ...extra,
});

/** What each streamed recording must come out as. */
const streamed: Record<string, AssistantMessage> = {
  "anthropic-text": {
    role: "assistant",
    content: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?",
    stats: stats(12, 30),
    stopReason: "end_turn",
    model: "anthropic/claude-test",
  },
  "anthropic-tool-no-args": {
    role: "assistant",
    content: "I'll update the issue list for you.",
    toolCalls: [{ id: "toolu_01QE1WLsSVp5hy5Q3GmGTmjP", name: "updateIssueList", arguments: {} }],
    stats: stats(565, 48),
    stopReason: "tool_use",
    model: "anthropic/claude-test",
  },
  "anthropic-json-tool.1": {
    role: "assistant",
    content: "",
    toolCalls: [{ id: "toolu_01KFbKqPYSuAKujiL6mTfzYA", name: "json", arguments: { elements: [{ location: "San Francisco", temperature: 58, condition: "sunny" }] } }],
    stats: stats(849, 47),
    stopReason: "tool_use",
    model: "anthropic/claude-test",
  },
  "anthropic-clear-thinking.1": {
    role: "assistant",
    content: "925 ÷ 5 = 185",
    reasoning: [
      {
        provider: "anthropic",
        text: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
        signature:
          "EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB",
      },
    ],
    stats: stats(69, 53),
    stopReason: "end_turn",
    model: "anthropic/claude-test",
  },
  "anthropic-code-execution-20260120-prompt-cache.1": {
    role: "assistant",
    content: "The sum of the squares of the numbers 1 through 12 is **650**.",
    // message_delta's cumulative usage wins: 6 + 3337 written + 6289 read.
    stats: { promptTokens: 9632, outputTokens: 198, totalTokens: 9830, cacheReadTokens: 6289, cacheWriteTokens: 3337, reasoningTokens: 0 },
    stopReason: "end_turn",
    model: "anthropic/claude-test",
  },
  "anthropic-message-delta-input-tokens": {
    role: "assistant",
    content: "pong",
    stats: stats(61, 2),
    stopReason: "end_turn",
    model: "anthropic/claude-test",
  },
  "anthropic-refusal": {
    role: "assistant",
    content: "",
    stats: stats(18, 5),
    stopReason: "refusal",
    model: "anthropic/claude-test",
  },
};

/** What each whole (non-streamed) JSON response must come out as, when a server answers with one. */
const whole: Record<string, AssistantMessage> = {
  "anthropic-text": { ...defined(streamed["anthropic-text"]), content: "Hello! I'm doing well, thanks for asking. How are you doing today? Is there anything I can help you with?", stats: stats(12, 29) },
  "anthropic-tool-no-args": {
    ...defined(streamed["anthropic-tool-no-args"]),
    content:
      "<thinking>\nThe updateIssueList tool was provided in the list of available functions. The tool has no required parameters, so it can be called without any additional information needed from the user.\n</thinking>\n\nOkay, I will update the current issue list:",
    toolCalls: [{ id: "toolu_01LRmxn9vGM1d2DZSDBowdZ1", name: "updateIssueList", arguments: {} }],
    stats: stats(602, 93),
  },
  "anthropic-json-tool.1": {
    ...defined(streamed["anthropic-json-tool.1"]),
    toolCalls: [
      {
        id: "toolu_01Q9ExVZnzZj7E2QQYHYtNUa",
        name: "json",
        arguments: {
          elements: [
            { location: "San Francisco", temperature: -5, condition: "snowy" },
            { location: "London", temperature: 0, condition: "snowy" },
            { location: "Paris", temperature: 23, condition: "cloudy" },
            { location: "Berlin", temperature: -9, condition: "snowy" },
          ],
        },
      },
    ],
    stats: stats(1151, 87),
  },
  "anthropic-clear-thinking.1": {
    ...defined(streamed["anthropic-clear-thinking.1"]),
    reasoning: [
      {
        provider: "anthropic",
        text: "925 divided by 5 = 185",
        signature:
          "Er4BCkYICxgCKkCoxqLHLrx4mFL9Ox7/aHKht87WDzXfvZ7qbZKSnHV8imA5b3LXxuVqcXQ9z5sXwDx20JIW/+6DJehOSNK72L83Egx0T9s7VzB6QUK9g5kaDO9lGaWN5CPEDJU0lyIw4+Ed3q4N9w+16h3cfQ+9stJXHCl+1nYDxjIOLcyJT8Ug/LTmtlp4bbxWmmfNicayKiasdReHiOnqz1sKEF0pR4kcnF5mQGdLxk8q3A3NY+wGsH8MtUIqxRgB",
      },
    ],
    stats: stats(69, 33),
  },
  "anthropic-refusal": defined(streamed["anthropic-refusal"]),
};

describe("anthropic: recorded traffic replayed over HTTP", () => {
  const server = useScriptedServer(beforeAll, afterAll);

  async function replay(body: string, contentType: string): Promise<StreamEvent[]> {
    server.reply({ headers: { "content-type": contentType }, body });
    const model = createAnthropicModel({ provider: "anthropic", model: "claude-test", apiKey: "test-key", baseUrl: server.url });
    return drain(model.stream({ messages: [{ role: "user", content: "Hi" }] }));
  }

  it.each(Object.keys(streamed))("%s.sse replays to the exact message", async (name) => {
    const events = await replay(fixture(`${name}.sse`), "text/event-stream");
    const message = doneMessage(events);
    expect(message).toEqual(streamed[name]);
    // The deltas add up to the message, and the events come in wire order.
    expect(events.filter((event) => event.type === "text").map((event) => event.delta).join("")).toBe(message.content);
    expect(events.filter((event) => event.type === "tool_call").map((event) => event.call)).toEqual(message.toolCalls ?? []);
    expect(events.slice(-2).map((event) => event.type)).toEqual(["usage", "done"]);
  });

  it.each(Object.keys(streamed))("%s.chunks.txt framed as SSE gives the same message", async (name) => {
    expect(doneMessage(await replay(framedChunks(`${name}.chunks.txt`), "text/event-stream"))).toEqual(streamed[name]);
  });

  it.each(Object.keys(whole))("%s.json, answered whole instead of streamed, gives its message", async (name) => {
    expect(doneMessage(await replay(fixture(`${name}.json`), "application/json"))).toEqual(whole[name]);
  });

  it("fails a whole reply whose JSON is not a message object, instead of answering nothing", async () => {
    await expect(replay("[]", "application/json")).rejects.toMatchObject({ code: "PROVIDER_ERROR", message: "anthropic: the response is JSON but not an object: []" });
  });

  it("streams thinking as reasoning deltas, skipping the empty one, before the text", async () => {
    const events = await replay(fixture("anthropic-clear-thinking.1.sse"), "text/event-stream");
    const kinds = events.map((event) => (event.type === "reasoning" || event.type === "text" ? `${event.type}:${event.delta}` : event.type));
    expect(kinds).toEqual([
      "reasoning:The previous",
      "reasoning: result",
      "reasoning: was",
      "reasoning: 925.",
      "reasoning: Now",
      "reasoning: I need to divide that",
      "reasoning: by 5.\n\n925",
      "reasoning: ÷ 5 ",
      "reasoning:= 185",
      "text:925",
      "text: ÷ 5 ",
      "text:= 185",
      "usage",
      "done",
    ]);
  });

  /** The recording's SSE events, as [event line, data] pairs, for deriving variants of it. */
  const sseEvents = (name: string) => fixture(name).split("\n\n").filter((event) => event.trim() !== "");

  it("fails a stream in which a second message_start begins mid-way, never merging two replies (derived from anthropic-text.sse)", async () => {
    const events = sseEvents("anthropic-text.sse");
    const start = events.find((event) => event.includes('"message_start"'));
    if (!start) throw new Error("the recording has no message_start");
    const middle = Math.floor(events.length / 2);
    const body = `${[...events.slice(0, middle), start, ...events.slice(1)].join("\n\n")}\n\n`;
    await expect(replay(body, "text/event-stream")).rejects.toThrow(
      "anthropic: a second message_start arrived mid-stream, so two replies would have been merged; the reply was dropped, try again",
    );
  });

  it("keeps a tool call that arrives whole inside message_start.content (derived from anthropic-tool-no-args.sse)", async () => {
    const events = sseEvents("anthropic-tool-no-args.sse");
    const recorded = doneMessage(await replay(`${events.join("\n\n")}\n\n`, "text/event-stream"));
    const call = recorded.toolCalls?.[0];
    if (!call) throw new Error("the recording has no tool call");
    // The same reply with its tool call moved into message_start, and its streamed blocks gone.
    const derived = events
      .filter((event) => !event.includes("content_block_"))
      .map((event) => {
        if (!event.includes('"message_start"')) return event;
        const data = JSON.parse(event.slice(event.indexOf("data: ") + 6));
        data.message.content = [{ type: "tool_use", id: call.id, name: call.name, input: call.arguments }];
        return `event: message_start\ndata: ${JSON.stringify(data)}`;
      });
    const message = doneMessage(await replay(`${derived.join("\n\n")}\n\n`, "text/event-stream"));
    expect(message.toolCalls).toEqual([call]);
  });
});
