import { TaskState } from "@a2a-js/sdk";
import { ClientFactory } from "@a2a-js/sdk/client";
import { createAgent } from "@weft/core";
import { memoryLogger, type Kernel, type PendingAnswer } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin from "./index.js";
import { startAgentServer, type AgentServer, type Turn } from "./test-fixtures/agent-server.js";

/** A remote agent that needs to know the city before it can answer. */
async function weatherAgent(turn: Turn): Promise<void> {
  turn.start();
  turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which city?");
}

const TOOL = "Weather_Agent__ask";
const askWeather = { toolCalls: [{ name: TOOL, arguments: { task: "weather" } }] };

/**
 * The host's answer reaches the remote agent whatever it is, through a real agent loop: the peer's own
 * record of the task (asked with a separate A2A client) ends canceled, and the model reads weft's words.
 */
describe("an A2A peer's question answered through the agent loop", () => {
  let server: AgentServer;
  let kernel: Kernel;

  beforeAll(async () => {
    server = await startAgentServer({ name: "Weather Agent", streaming: true, skills: [{ id: "ask", name: "Ask", description: "Ask about the weather" }], run: weatherAgent });
    kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl, timeout: 60_000 }] }]], { logger: memoryLogger() });
  });

  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  async function taskState(taskId: string): Promise<TaskState | undefined> {
    const client = await new ClientFactory().createFromUrl(server.origin);
    return (await client.getTask({ tenant: "", id: taskId, historyLength: 0 })).status?.state;
  }

  it.each<[string, () => Promise<PendingAnswer>, string]>([
    ["declines", async () => ({ action: "decline" }), "decline"],
    ["cancels", async () => ({ action: "cancel" }), "cancel"],
    [
      "times out",
      async () => {
        throw new Error("nobody answered within 5 minutes");
      },
      "cancel",
    ],
  ])("cancels the remote task when the host %s", async (_label, answer, action) => {
    const cancelled = server.nextCancel();
    const model = scriptedModel([askWeather, "I could not get the weather."]);
    const agent = createAgent({ model, kernel, waitFor: answer });
    await agent.process("what is the weather?");
    const taskId = await cancelled;
    expect(await taskState(taskId)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: "tool", toolCallId: "call_1", toolName: TOOL, content: `Weather_Agent was not answered (${action}); its task was canceled`, isError: true });
    await agent.close();
  });

  it("cancels the remote task when new input comes instead of an answer", async () => {
    const model = scriptedModel([askWeather, "Fine, no weather then."]);
    const agent = createAgent({ model, kernel });
    expect(await agent.process("what is the weather?")).toMatchObject({ status: "pending", suspension: { kind: "input", message: "Which city?" } });
    const cancelled = server.nextCancel();
    await agent.process("never mind");
    const taskId = await cancelled;
    expect(await taskState(taskId)).toBe(TaskState.TASK_STATE_CANCELED);
    expect(model.requests[1]?.messages.slice(-2)).toEqual([
      { role: "tool", toolCallId: "call_1", toolName: TOOL, content: "Weather_Agent was not answered (cancel); its task was canceled", isError: true },
      { role: "user", content: "never mind" },
    ]);
    await agent.close();
  });

  it("cancels the remote task when the turn is aborted while the host has not answered", async () => {
    const controller = new AbortController();
    const cancelled = server.nextCancel();
    const agent = createAgent({ model: scriptedModel([askWeather]), kernel, waitFor: () => {
        controller.abort();
        return new Promise<PendingAnswer>(() => {});
      },
    });
    await expect(agent.process("what is the weather?", { signal: controller.signal })).rejects.toMatchObject({ code: "ABORTED" });
    const taskId = await cancelled;
    expect(await taskState(taskId)).toBe(TaskState.TASK_STATE_CANCELED);
    await agent.close();
  });
});
