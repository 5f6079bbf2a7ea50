import { afterEach, describe, expect, it } from "vitest";
import { ContextOverflowError } from "@weft/sdk";
import type { ChatRequest, FeedbackEvent, FeedbackEventOf, Kernel, Message } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { prunedOutput } from "./prune-tool-results.js";
import { SUMMARY_HEADING, SUMMARY_INSTRUCTIONS } from "./summary-prompt.js";
import { isSummaryRequest, longTurnScript, requestTokens } from "./test-fixtures/long-turn-model.js";
import { readTool } from "./test-fixtures/read-tool.js";
import { wireProblems } from "./test-fixtures/transcript-rules.js";

const newKernel = testKernels(afterEach);

function setup(outputChars: number): { kernel: Kernel; events: FeedbackEvent[] } {
  const kernel = newKernel();
  const events: FeedbackEvent[] = [];
  kernel.hooks.feedback.tap((event) => void events.push(event));
  kernel.hooks.tools.tap((tools) => {
    tools.add(readTool([], (path) => `${path}: ${"lorem ipsum ".repeat(Math.ceil(outputChars / 12))}`.slice(0, outputChars)));
  });
  return { kernel, events };
}

/** The requests of the turn's own calls (not summaries), each with the index of its reply's turn input. */
function turnRequests(requests: readonly ChatRequest[]): ChatRequest[] {
  return requests.filter((request) => !isSummaryRequest(request));
}

/** Mid-turn, a request ends with the previous reply (a tool call) and its result, verbatim. */
function endsWithLastStep(messages: readonly Message[]): boolean {
  const [call, result] = messages.slice(-2);
  return call?.role === "assistant" && result?.role === "tool" && call.toolCalls?.[0]?.id === result.toolCallId && result.content.includes(": lorem ipsum");
}

describe("compaction as a budgeted, protected pipeline", () => {
  for (const { window, rounds, turns, outputChars } of [
    { window: 2000, rounds: 40, turns: 1, outputChars: 600 },
    { window: 4000, rounds: 12, turns: 5, outputChars: 1500 },
  ]) {
    it(`keeps the protected set in every request, never exceeds the window, and summarises at most once per 4 calls (window ${window}, ${turns}×${rounds} rounds)`, async () => {
      const { kernel, events } = setup(outputChars);
      const model = scriptedModel(longTurnScript({ rounds, turns }), { contextWindow: window });
      const agent = createAgent({ model, kernel, maxIterations: 0 });
      await agent.startSession({ prompt: "You read files." });
      for (let turn = 1; turn <= turns; turn++) {
        const input = `Turn ${turn}: read every part, and remember the code word ${"x".repeat(turn)}.`;
        const before = model.requests.length;
        const response = await agent.process(input);
        expect(response.status).toBe("done");
        const requests = turnRequests(model.requests.slice(before));
        expect(requests).toHaveLength(rounds + 1);
        for (const [index, request] of requests.entries()) {
          expect(request.messages[0]).toEqual({ role: "system", content: "You read files." });
          expect(request.messages.some((message) => message.role === "user" && message.content === input)).toBe(true);
          if (index > 0) expect(endsWithLastStep(request.messages)).toBe(true);
          expect(wireProblems(request.messages)).toEqual([]);
        }
        expect(response.content).toBe(`Turn done after ${rounds} rounds.`);
      }
      for (const request of model.requests) expect(requestTokens(request)).toBeLessThanOrEqual(window);
      const summaries = model.requests.filter(isSummaryRequest).length;
      const calls = model.requests.length - summaries;
      expect(summaries).toBeGreaterThan(0);
      expect(summaries * 4).toBeLessThanOrEqual(calls);
      const finished = events.filter((event): event is FeedbackEventOf<"compaction.finished"> => event.type === "compaction.finished");
      for (const event of finished) expect(event.after).toBeLessThan(Math.floor(window * 0.85));
    });
  }

  it("keeps the last step verbatim: every request ends with the previous reply and its results", async () => {
    const { kernel } = setup(600);
    const model = scriptedModel(longTurnScript({ rounds: 30, turns: 1 }), { contextWindow: 2000 });
    const agent = createAgent({ model, kernel, maxIterations: 0 });
    await agent.process("read every part");
    const requests = turnRequests(model.requests);
    // Request n+1 follows reply n: it must end with that reply's call and result.
    for (let index = 1; index < requests.length; index++) {
      const request = requests[index] as ChatRequest;
      const tail = request.messages.slice(-2);
      expect(tail[0]).toMatchObject({ role: "assistant", content: `Reading part ${index}.`, toolCalls: [{ name: "read", arguments: { path: `part-${index}.txt` } }] });
      expect(tail[1]).toMatchObject({ role: "tool", toolName: "read", content: expect.stringMatching(new RegExp(`^part-${index}\\.txt: lorem`)) });
    }
  });

  it("prunes old tool outputs oldest first to a stub that keeps the call, before any summary", async () => {
    const { kernel, events } = setup(1200);
    // Window 2000: threshold 1700, target 1200. Reads of ~300 tokens each: the sixth passes the threshold.
    const model = scriptedModel(longTurnScript({ rounds: 8, turns: 1 }), { contextWindow: 2000 });
    const agent = createAgent({ model, kernel });
    await agent.process("read eight parts");
    const stubbed = model.requests.flatMap((request) => request.messages).filter((message) => message.role === "tool" && message.content.startsWith("[output removed"));
    expect(stubbed[0]?.content).toBe(prunedOutput(1200));
    expect(prunedOutput(1200)).toBe("[output removed to save context: 1200 characters; call the tool again if you still need it]");
    const first = events.find((event) => event.type === "compaction.finished") as FeedbackEventOf<"compaction.finished">;
    expect(first.stages.map((stage) => stage.stage)).toEqual(["prune"]);
    expect(first.stages[0]?.removedTokens).toBe(first.before - first.after);
    expect(model.requests.some(isSummaryRequest)).toBe(false);
    expect(events.find((event) => event.type === "compaction.started")).toEqual({ type: "compaction.started", estimatedTokens: expect.any(Number), thresholdTokens: 1700, targetTokens: 1200 });
  });

  it("reports the summary call like any model call, and its usage in the stage report", async () => {
    const { kernel, events } = setup(200);
    const model = scriptedModel(longTurnScript({ rounds: 2, turns: 12 }), { contextWindow: 2000 });
    const agent = createAgent({ model, kernel, compaction: { keepRecentTurns: 0 } });
    for (let turn = 0; turn < 12; turn++) await agent.process(`turn ${turn}: ${"please ".repeat(30)}`);
    const summary = model.requests.find(isSummaryRequest);
    expect(summary?.messages[0]).toEqual({ role: "system", content: SUMMARY_INSTRUCTIONS });
    const requestEvent = events.find((event) => event.type === "model.request" && event.purpose === "summary");
    expect(requestEvent).toEqual({ type: "model.request", model: "scripted/test-model", messages: 2, tools: 0, purpose: "summary" });
    const responseEvent = events.find((event): event is FeedbackEventOf<"model.response"> => event.type === "model.response" && event.purpose === "summary");
    expect(responseEvent?.stats.promptTokens).toBe(requestTokens(summary as ChatRequest));
    const finished = events.find((event): event is FeedbackEventOf<"compaction.finished"> => event.type === "compaction.finished" && event.stages.some((stage) => stage.stage === "summarise"));
    const stage = finished?.stages.find((entry) => entry.stage === "summarise");
    expect(stage?.summaryUsage).toEqual(responseEvent?.stats);
    expect(agent.messages().filter((message) => message.role === "user" && message.content.startsWith(SUMMARY_HEADING))).toHaveLength(1);
  });

  it("pins the summary prompt: goals, decisions, files touched, open questions", () => {
    expect(SUMMARY_INSTRUCTIONS).toBe(
      [
        "You summarise a conversation between a user and an AI assistant that uses tools, so that the assistant can carry on from your summary alone.",
        "Write these sections, each a short list:",
        "Goals: what the user asked for and every constraint they set, in their own words where it matters.",
        "Decisions: what was decided, and why when it matters.",
        "Files and resources: every file, path, URL or other resource read, created or changed, and what happened to it.",
        "Facts: what was learned from tool results (names, numbers, errors) that is still needed.",
        "Done so far, and open questions: what remains to do or is still unresolved.",
        "Leave out small talk and tool output that no longer matters. Write plain text without a preamble.",
      ].join("\n"),
    );
  });

  it("drops the oldest turns when the summary fails, and still stays under the window", async () => {
    const { kernel, events } = setup(200);
    const script = longTurnScript({ rounds: 1, turns: 30 }).map((step) => (request: ChatRequest) => (isSummaryRequest(request) ? new Error("overloaded") : typeof step === "function" ? step(request) : step));
    const model = scriptedModel(script, { contextWindow: 1500 });
    const agent = createAgent({ model, kernel, compaction: { prune: false } });
    for (let turn = 0; turn < 30; turn++) await agent.process(`turn ${turn}: ${"go on ".repeat(20)}`);
    expect(events.some((event) => event.type === "compaction.failed" && event.reason === "the summary call failed (overloaded); older turns are dropped instead if the prompt is still too large")).toBe(true);
    const finished = events.filter((event): event is FeedbackEventOf<"compaction.finished"> => event.type === "compaction.finished");
    expect(finished.some((event) => event.stages.some((stage) => stage.stage === "drop"))).toBe(true);
    for (const request of turnRequests(model.requests)) {
      expect(requestTokens(request)).toBeLessThanOrEqual(1500);
      expect(wireProblems(request.messages)).toEqual([]);
    }
  });

  it("fails with ContextOverflowError naming what it kept when the protected set alone is over the window", async () => {
    const { kernel } = setup(4000);
    const model = scriptedModel(longTurnScript({ rounds: 3, turns: 1 }), { contextWindow: 1000 });
    const agent = createAgent({ model, kernel });
    await agent.startSession({ prompt: "Sys." });
    const error = await agent.process("read a part").then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ContextOverflowError);
    const overflow = error as ContextOverflowError;
    expect(overflow.code).toBe("CONTEXT_OVERFLOW");
    expect(overflow.contextWindow).toBe(1000);
    expect(overflow.protectedParts.map((part) => part.what)).toEqual([
      "the system prompt and tool definitions",
      "this turn's user message",
      "the latest assistant message with its 1 tool call and their results",
    ]);
    const [system, input, step] = overflow.protectedParts;
    expect(overflow.message).toBe(
      `the next request to scripted/test-model needs ~${overflow.estimatedTokens} tokens, more than its context window of 1000, and compaction left only what it must keep: ` +
        `the system prompt and tool definitions (~${system?.tokens} tokens), this turn's user message (~${input?.tokens} tokens), the latest assistant message with its 1 tool call and their results (~${step?.tokens} tokens); ` +
        "shorten the input or the tool output, or use a model with a larger window",
    );
    expect(step?.tokens).toBeGreaterThan(1000);
    // Only the first request went out: the oversized one never did.
    expect(model.requests).toHaveLength(1);
    expect(wireProblems(agent.messages())).toEqual([]);
  });
});
