import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { defineTool, emptyStats } from "@weft/sdk";
import type { FeedbackEvent } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { consoleFeedback } from "./console-feedback.js";

const newKernel = testKernels(afterEach);

describe("consoleFeedback", () => {
  it("prints one readable line per event of a real turn, deltas left out", async () => {
    const kernel = newKernel();
    const lines: string[] = [];
    kernel.hooks.feedback.tap(consoleFeedback({ write: (line) => lines.push(line) }));
    const add = defineTool({ name: "add", description: "Add", input: Type.Object({ a: Type.Number(), b: Type.Number() }), execute: ({ a, b }) => ({ output: String(a + b) }) });
    const model = scriptedModel(
      [
        { text: "Adding\nnow.", toolCalls: [{ name: "add", arguments: { a: 1, b: 2 } }], stats: { promptTokens: 40, outputTokens: 8 } },
        { text: "3", stats: { promptTokens: 60, outputTokens: 1 } },
      ],
      { contextWindow: 10_000 },
    );
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [add], sessionId: "demo" });
    await agent.process("1 + 2?");
    await agent.close();
    // Durations vary; everything else is exact.
    const shown = lines.map((line) => line.replace(/\d+\.\d\d s/g, "T s").replace(/in \d+ ms/, "in N ms"));
    expect(shown).toEqual([
      "session demo started",
      "model scripted/test-model ← 1 message, 1 tool",
      "model scripted/test-model → 40 prompt + 8 output tokens in T s (tool_use)",
      "assistant: Adding now.",
      'tool add {"a":1,"b":2}',
      "tool add returned in N ms: 3",
      "model scripted/test-model ← 3 messages, 1 tool",
      "model scripted/test-model → 60 prompt + 1 output tokens in T s (end_turn)",
      "turn done: 2 iterations, 1 tool call, 109 tokens, T s",
      "session demo closed",
    ]);
  });

  it("describes the remaining events, cuts long excerpts, and shows events plugins declare", () => {
    const lines: string[] = [];
    const print = consoleFeedback({ write: (line) => lines.push(line), maxExcerpt: 20 });
    const events = [
      { type: "text.delta", delta: "ignored" },
      { type: "reasoning.delta", delta: "ignored" },
      { type: "model.info-unavailable", model: "x/y", reason: "no info" },
      { type: "tool.progress", callId: "c", name: "fetch", progress: { progress: 3, total: 10, message: "pages" } },
      { type: "tool.returned", callId: "c", name: "fetch", result: { output: "x".repeat(50), isError: true }, isError: true, elapsedMs: 12.4 },
      { type: "tool.repeated", callId: "c", name: "fetch", arguments: {}, count: 3 },
      { type: "tool.pending", suspension: { kind: "question", message: "Which one?", callId: "c", toolName: "question" } },
      { type: "compaction.started", estimatedTokens: 900, thresholdTokens: 850 },
      { type: "compaction.finished", before: 900, after: 300 },
      { type: "compaction.failed", reason: "overloaded" },
      { type: "compaction.skipped", reason: "unknown window" },
      { type: "turn.finished", status: "pending", metadata: { iterations: 1, toolCalls: 1, usage: emptyStats(), finalUsage: emptyStats(), timings: { modelMs: 0, toolMs: 0, totalMs: 1500 } } },
      { type: "mcp.status", server: "fs", state: "failed", error: "spawn ENOENT" },
      { type: "mcp.status", server: "fs", state: "connected", tools: 1 },
      { type: "mcp.tools-changed", server: "fs", added: ["a"], removed: ["b"] },
      { type: "jira.synced", issues: 4 },
    ] as unknown as FeedbackEvent[];
    for (const event of events) print(event);
    expect(lines).toEqual([
      "model x/y: context window unknown (no info)",
      "tool fetch progress 3/10: pages",
      `tool fetch failed in 12 ms: ${"x".repeat(19)}…`,
      "tool fetch called 3 times in a row with the same arguments",
      "tool question waits for the user (question): Which one?",
      "compaction started: ~900 tokens, threshold 850",
      "compaction finished: ~900 → ~300 tokens",
      "compaction failed: overloaded",
      "compaction skipped: unknown window",
      "turn pending: 1 iteration, 1 tool call, 0 tokens, 1.50 s",
      "mcp fs failed: spawn ENOENT",
      "mcp fs connected (1 tool)",
      "mcp fs tools changed: +a -b",
      'jira.synced {"issues":4}',
    ]);
  });
});
