import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { CompactStage, defineTool } from "@weft/sdk";
import type { ChatRequest, FeedbackEvent, Kernel, Message } from "@weft/sdk";
import { defined, scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { SUMMARY_INSTRUCTIONS } from "./summary-prompt.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const newKernel = testKernels(afterEach);

function setup(): { kernel: Kernel; events: FeedbackEvent[] } {
  const kernel = newKernel();
  const events: FeedbackEvent[] = [];
  kernel.hooks.feedback.tap((event) => void events.push(event));
  return { kernel, events };
}

/** `read {path}` answers with the text stored under the path. */
function readTool(files: Record<string, string>) {
  return defineTool({
    name: "read",
    description: "Read a file",
    input: Type.Object({ path: Type.String() }),
    execute: ({ path }) => ({ output: files[path] ?? `no such file: ${path}` }),
  });
}

const compactionEvents = (events: FeedbackEvent[]) => events.filter((event) => event.type.startsWith("compaction.") || event.type === "model.info-unavailable");

describe("compaction", () => {
  // Window 2000, threshold 85% = 1700; the last two turns stay verbatim; older results over 200 characters are cut.
  const options = { thresholdPercent: 85, keepRecentTurns: 2, pruneToolResultChars: 200 };

  it("summarises older turns mid-turn: system kept, one summary message, recent turns verbatim", async () => {
    const { kernel, events } = setup();
    const notes = `Project notes: ${"the deadline is Friday; ".repeat(160)}`;
    const summaryRequests: ChatRequest[] = [];
    const model = scriptedModel(
      [
        { text: "Noted.", stats: { promptTokens: 1010, outputTokens: 5 } },
        {
          text: "Reading a.",
          toolCalls: [{ name: "read", arguments: { path: "a" } }],
          reasoning: [{ provider: "anthropic", text: "I should read a", signature: "sig-1" }],
          stats: { promptTokens: 1030, outputTokens: 5 },
        },
        (request) => (summaryRequests.push(request), { text: "The user shared project notes: the deadline is Friday.", stats: { promptTokens: 900, outputTokens: 12 } }),
        { text: "a says hello.", stats: { promptTokens: 760, outputTokens: 4 } },
      ],
      { contextWindow: 2000 },
    );
    const agent = createAgent({ model, kernel, compaction: options });
    await agent.startSession({ prompt: "You are terse.", tools: [readTool({ a: `hello ${"a".repeat(2794)}` })] });
    await agent.process(notes);
    const response = await agent.process("now read a");

    expect(summaryRequests).toHaveLength(1);
    expect(summaryRequests[0]?.tools).toBeUndefined();
    expect(summaryRequests[0]?.messages).toEqual([
      { role: "system", content: SUMMARY_INSTRUCTIONS },
      { role: "user", content: `Summarise this conversation:\n\n<transcript>\n[user]\n${notes}\n\n[assistant]\nNoted.\n</transcript>` },
    ]);

    const sent = defined(model.requests[3], "a fourth request").messages;
    expect(sent).toEqual([
      { role: "system", content: "You are terse." },
      { role: "user", content: "Summary of the conversation so far:\n\nThe user shared project notes: the deadline is Friday." },
      { role: "user", content: "now read a" },
      {
        role: "assistant",
        content: "Reading a.",
        toolCalls: [{ id: "call_1", name: "read", arguments: { path: "a" } }],
        reasoning: [{ provider: "anthropic", text: "I should read a", signature: "sig-1" }],
        stats: expect.any(Object),
        stopReason: "tool_use",
        model: "scripted/test-model",
      },
      { role: "tool", toolCallId: "call_1", toolName: "read", content: `hello ${"a".repeat(2794)}` },
    ]);
    expect(wireProblems(sent)).toEqual([]);
    expect(compactionEvents(events)).toEqual([
      { type: "compaction.started", estimatedTokens: 1739, thresholdTokens: 1700, targetTokens: 1200 },
      {
        type: "compaction.finished",
        before: 1739,
        after: 1739 - 947,
        stages: [{ stage: "summarise", removedTokens: 947, messages: 2, summaryUsage: { promptTokens: 900, outputTokens: 12, totalTokens: 912, cacheReadTokens: 0, cacheWriteTokens: 0 } }],
      },
    ]);
    const finished = compactionEvents(events)[1] as { after: number };
    expect(finished.after).toBeLessThan(1700);
    // The summary call's tokens count in the turn; it is not an iteration.
    expect(response.metadata).toMatchObject({ iterations: 2, usage: { promptTokens: 1030 + 900 + 760, outputTokens: 5 + 12 + 4 } });
    expect(agent.messages()).toEqual([...sent, expect.objectContaining({ role: "assistant", content: "a says hello." })]);
  });

  it("skips compaction with an event saying why when the context window is unknown", async () => {
    const { kernel, events } = setup();
    const model = scriptedModel([{ text: "one", stats: { promptTokens: 1_000_000 } }, "two"]);
    const agent = createAgent({ model, kernel });
    await agent.process("first");
    await agent.process("second");
    expect(compactionEvents(events)).toEqual([
      { type: "model.info-unavailable", model: "scripted/test-model", reason: "scripted: the model's context window is unknown" },
      {
        type: "compaction.skipped",
        reason: "the context window of scripted/test-model is unknown (scripted: the model's context window is unknown); compaction is off for this model",
      },
    ]);
  });

  it("compacts on demand whatever the size", async () => {
    const { kernel, events } = setup();
    const model = scriptedModel(["one", "two", "three", "Summary text."], { contextWindow: 100_000 });
    const agent = createAgent({ model, kernel, compaction: { keepRecentTurns: 2 } });
    await agent.startSession({ prompt: "Sys." });
    await agent.process("first");
    await agent.process("second");
    await agent.process("third");
    await agent.compact();
    expect(agent.messages()).toEqual([
      { role: "system", content: "Sys." },
      { role: "user", content: "Summary of the conversation so far:\n\nSummary text." },
      { role: "user", content: "third" },
      expect.objectContaining({ role: "assistant", content: "three" }),
    ]);
    expect(compactionEvents(events)[0]).toEqual({ type: "compaction.started", estimatedTokens: expect.any(Number), thresholdTokens: 85_000, targetTokens: 0 });
    expect(wireProblems(agent.messages())).toEqual([]);
  });

  it("lets an application replace the built-in stages with its own tap on the compact hook", async () => {
    const { kernel } = setup();
    const model = scriptedModel(
      [
        { text: "one", stats: { promptTokens: 10 } },
        { text: "two", stats: { promptTokens: 950 } },
        "three",
      ],
      { contextWindow: 1000 },
    );
    const seen: Message[][] = [];
    // Drop everything but the last two messages: a model-free stage of the application's own.
    kernel.hooks.compact.tap({ stage: CompactStage.SUMMARISE }, (state) => {
      seen.push(state.messages);
      const [system, ...rest] = state.messages;
      const kept = rest.slice(-1);
      return { ...state, messages: system ? [system, ...kept] : kept, estimatedTokens: 50 };
    });
    const agent = createAgent({ model, kernel, compaction: { prune: false, summarise: false, drop: false } });
    await agent.startSession({ prompt: "Sys." });
    await agent.process("first");
    await agent.process("second");
    await agent.process("third");
    expect(seen).toHaveLength(1);
    expect(model.requests[2]?.messages).toEqual([
      { role: "system", content: "Sys." },
      { role: "user", content: "third" },
    ]);
  });

  it("applies each agent's own stages when several agents share a kernel", async () => {
    const { kernel } = setup();
    const turns = (summary: string[]) => [{ text: "one", stats: { promptTokens: 10 } }, { text: "two", stats: { promptTokens: 950 } }, ...summary, "three"];
    const plain = scriptedModel(turns([]), { contextWindow: 1000 });
    const summarising = scriptedModel(turns(["Earlier: one, two."]), { contextWindow: 1000 });
    const withoutStages = createAgent({ model: plain, kernel, compaction: { prune: false, summarise: false, drop: false } });
    // The scripted prompt sizes are far above the real ones: dropping would take the summary too.
    const withStages = createAgent({ model: summarising, kernel, compaction: { keepRecentTurns: 1, drop: false } });
    for (const agent of [withoutStages, withStages]) {
      await agent.process("first");
      await agent.process("second");
      await agent.process("third");
    }
    expect(plain.requests[2]?.messages).toHaveLength(5);
    expect(summarising.requests[3]?.messages).toEqual([
      { role: "user", content: "Summary of the conversation so far:\n\nEarlier: one, two." },
      { role: "user", content: "third" },
    ]);
    expect(wireProblems(defined(summarising.requests[3], "a fourth request").messages)).toEqual([]);
  });
});
