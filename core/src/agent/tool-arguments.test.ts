import { afterEach, describe, expect, it } from "vitest";
import { parseToolArguments } from "@weft/sdk";
import type { FeedbackEvent, Kernel, ToolMessage } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { repeatedCallMessage } from "./loop-guard.js";
import { readTool } from "./test-fixtures/read-tool.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const newKernel = testKernels(afterEach);

function setup(): { kernel: Kernel; events: FeedbackEvent[]; reads: string[] } {
  const kernel = newKernel();
  const events: FeedbackEvent[] = [];
  kernel.hooks.feedback.tap((event) => void events.push(event));
  const reads: string[] = [];
  kernel.hooks.tools.tap((tools) => void tools.add(readTool(reads)));
  return { kernel, events, reads };
}

/** A call as a provider hands it over when the model's argument text was broken. */
const broken = (text: string) => ({ name: "read", ...parseToolArguments(text) });

const results = (messages: readonly { role: string }[]) => messages.filter((message): message is ToolMessage => message.role === "tool");

describe("tool calls the model can fix", () => {
  it("answers arguments that are not JSON, not an object, or a call without a name with an error; the round's other calls run and the turn goes on", async () => {
    const { kernel, events, reads } = setup();
    const model = scriptedModel([
      {
        toolCalls: [broken('{"path": "a.txt"'), { name: "read", arguments: { path: "b.txt" } }, broken('["a.txt"]'), { name: "", arguments: {} }],
      },
      { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
      "Both read.",
    ]);
    const agent = createAgent({ model, kernel });
    const response = await agent.process("read a.txt and b.txt");

    expect(response).toMatchObject({ status: "done", content: "Both read." });
    expect(reads).toEqual(["b.txt", "a.txt"]);
    const sent = model.requests[1]?.messages ?? [];
    expect(results(sent).map(({ content, isError }) => ({ content, isError }))).toEqual([
      {
        content: `arguments were not valid JSON: Expected ',' or '}' after property value in JSON at position 16; the text received was: {"path": "a.txt"`,
        isError: true,
      },
      { content: "contents of b.txt", isError: undefined },
      { content: 'arguments were not a JSON object but an array; the text received was: ["a.txt"]', isError: true },
      { content: "the tool call has no tool name: call a tool by one of the names in your tool list", isError: true },
    ]);
    expect(wireProblems(agent.messages())).toEqual([]);
    // The broken calls never reach the execute path, but observers see their results.
    expect(events.filter((event) => event.type === "tool.called")).toHaveLength(2);
    expect(events.filter((event) => event.type === "tool.returned" && event.isError)).toHaveLength(3);
  });

  it("shows the model the first 200 characters of what it sent", async () => {
    const { kernel } = setup();
    const text = `{"path": "${"x".repeat(300)}`;
    const model = scriptedModel([{ toolCalls: [broken(text)] }, "Gave up."]);
    await createAgent({ model, kernel }).process("read it");
    const [result] = results(model.requests[1]?.messages ?? []);
    expect(result?.content).toBe(`arguments were not valid JSON: Unterminated string in JSON at position 310; the text received was: ${text.slice(0, 200)}`);
  });

  it("counts the same broken call repeated in a row for the loop guard, and not different broken texts", async () => {
    const { kernel } = setup();
    const model = scriptedModel([
      { toolCalls: [broken('{"path": 1')] },
      { toolCalls: [broken('{"path": 2')] },
      { toolCalls: [broken('{"path": 2')] },
      { toolCalls: [broken('{"path": 2')] },
      "Stopped.",
    ]);
    const agent = createAgent({ model, kernel, repeatLimit: 3 });
    const response = await agent.process("read");
    expect(response.status).toBe("done");
    const last = results(model.requests[4]?.messages ?? []).map((message) => message.content);
    expect(last.slice(0, 3).every((content) => content.startsWith("arguments were not valid JSON"))).toBe(true);
    expect(last[3]).toBe(repeatedCallMessage("read", 3));
  });
});
