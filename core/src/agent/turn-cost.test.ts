import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import { addStats, defineTool, emptyStats, type FeedbackEvent } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";

const newKernel = testKernels(afterEach);

const echo = defineTool({ name: "echo", description: "Echo", input: Type.Object({ text: Type.String() }), execute: ({ text }) => ({ output: text }) });

describe("cost per turn and session", () => {
  it("sums costUsd over a turn's model calls, reports each call's, and the session's is the sum of its turns", async () => {
    const kernel = newKernel();
    const responses: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void (event.type === "model.response" && responses.push(event)));
    const model = scriptedModel([
      { toolCalls: [{ name: "echo", arguments: { text: "a" } }], stats: { costUsd: 0.0125 } },
      { text: "done", stats: { costUsd: 0.0031 } },
      // A local model's reply costs nothing and says so.
      { text: "again", stats: { costUsd: 0 } },
    ]);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [echo] });
    const first = await agent.process("go");
    const second = await agent.process("again");
    expect(first.metadata.usage.costUsd).toBeCloseTo(0.0156, 10);
    expect(first.metadata.finalUsage.costUsd).toBe(0.0031);
    expect(second.metadata.usage.costUsd).toBe(0);
    expect(responses.map((event) => event.type === "model.response" && event.stats.costUsd)).toEqual([0.0125, 0.0031, 0]);
    const session = agent
      .messages()
      .flatMap((message) => (message.role === "assistant" && message.stats ? [message.stats] : []))
      .reduce(addStats, emptyStats());
    expect(session.costUsd).toBeCloseTo((first.metadata.usage.costUsd ?? 0) + (second.metadata.usage.costUsd ?? 0), 10);
  });

  it("leaves costUsd out where no call reported one", async () => {
    const kernel = newKernel();
    const agent = createAgent({ model: scriptedModel(["hi"]), kernel });
    expect((await agent.process("hi")).metadata.usage.costUsd).toBeUndefined();
  });
});
