import { TaskState } from "@a2a-js/sdk";
import { memoryLogger, type Kernel, type MemoryLogger, type ToolProgress } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin from "./index.js";
import { ClientFactory } from "@a2a-js/sdk/client";
import { startAgentServer, textPart, urlPart, type AgentServer, type Turn } from "./test-fixtures/agent-server.js";

/** The remote agent's behaviour, chosen by the task text; a message on an existing task is an answer. */
async function echoAgent(turn: Turn): Promise<void> {
  if (turn.task) {
    turn.start();
    turn.status(TaskState.TASK_STATE_WORKING);
    turn.artifact("answer", `Sunny in ${turn.text}`);
    turn.status(TaskState.TASK_STATE_COMPLETED);
    return;
  }
  switch (turn.text) {
    case "hello":
      return turn.reply("Hello back");
    case "report":
      turn.start();
      turn.status(TaskState.TASK_STATE_WORKING, "writing");
      turn.artifact("summary", "Llamas are fine.");
      turn.artifact("details", "They eat grass.");
      turn.status(TaskState.TASK_STATE_COMPLETED);
      return;
    case "chunks":
      turn.start();
      turn.chunk("story", "Lla", false, false);
      turn.chunk("story", "mas are ", true, false);
      turn.chunk("story", "fine.\n\nThe end", true, true);
      turn.status(TaskState.TASK_STATE_COMPLETED);
      return;
    case "mixed":
      turn.start();
      turn.artifactParts("result", [
        textPart("Found 2 llamas"),
        { content: { $case: "data", value: { count: 2, names: ["Ada", "Bo"] } }, metadata: undefined, filename: "", mediaType: "application/json" },
        { content: { $case: "raw", value: Buffer.from([137, 80, 78, 71]) }, metadata: undefined, filename: "llama.png", mediaType: "image/png" },
      ]);
      turn.status(TaskState.TASK_STATE_COMPLETED);
      return;
    case "quiet":
      turn.start();
      turn.status(TaskState.TASK_STATE_COMPLETED, "Done, nothing to report");
      return;
    case "break":
      turn.start();
      turn.status(TaskState.TASK_STATE_FAILED, "disk full");
      return;
    case "refuse":
      turn.start();
      turn.status(TaskState.TASK_STATE_REJECTED, "not my job");
      return;
    case "weather":
      turn.start();
      turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, "Which city?");
      return;
    case "login":
      turn.start();
      turn.status(TaskState.TASK_STATE_AUTH_REQUIRED, "Sign in first", [urlPart("https://auth.example/login")]);
      return;
    case "slow":
      turn.start();
      turn.status(TaskState.TASK_STATE_WORKING, "thinking");
      await turn.cancelled;
      return;
    default:
      throw new Error(`unscripted task: ${turn.text}`);
  }
}

const TOOL = "Echo_Agent__ask";
const ask = (task: string) => ({ name: TOOL, arguments: { task } });

describe.each([
  { mode: "streaming", streaming: true },
  { mode: "polling", streaming: false },
])("a call to a remote agent ($mode)", ({ streaming }) => {
  let server: AgentServer;
  let kernel: Kernel;
  let logger: MemoryLogger;

  beforeAll(async () => {
    server = await startAgentServer({
      name: "Echo Agent",
      streaming,
      skills: [{ id: "ask", name: "Ask", description: "Ask the echo agent anything" }],
      run: echoAgent,
    });
    logger = memoryLogger();
    kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl, timeout: 60_000 }] }]], { logger });
  });

  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  it("returns a direct message reply as its text", async () => {
    const result = await kernel.execute(ask("hello"));
    expect(result).toEqual({ output: "Hello back", metadata: { contextId: expect.any(String) } });
  });

  it("returns the text of the artifacts of a completed task", async () => {
    const result = await kernel.execute(ask("report"));
    expect(result).toEqual({
      output: "Llamas are fine.\n\nThey eat grass.",
      metadata: { taskId: expect.any(String), contextId: expect.any(String), state: "completed" },
    });
  });

  it("joins the appended chunks of an artifact exactly as sent", async () => {
    const result = await kernel.execute(ask("chunks"));
    expect(result.output).toBe("Llamas are fine.\n\nThe end");
  });

  it("keeps the text, data and file parts of a multi-part artifact", async () => {
    const result = await kernel.execute(ask("mixed"));
    expect(result.output).toBe('Found 2 llamas\n{"count":2,"names":["Ada","Bo"]}\n[file llama.png, image/png]');
  });

  it("returns the agent's last message when a task completes without artifacts", async () => {
    const result = await kernel.execute(ask("quiet"));
    expect(result.output).toBe("Done, nothing to report");
    expect(result.isError).toBeUndefined();
  });

  it("turns a failed task into an error result with the agent's message", async () => {
    const result = await kernel.execute(ask("break"));
    expect(result.isError).toBe(true);
    expect(result.output).toBe("Echo_Agent failed the task: disk full");
    expect(result.metadata?.state).toBe("failed");
  });

  it("turns a rejected task into an error result with the agent's message", async () => {
    const result = await kernel.execute(ask("refuse"));
    expect(result).toMatchObject({ isError: true, output: "Echo_Agent rejected the task: not my job" });
  });

  it("suspends on input-required and resumes the same task with the host's answer", async () => {
    const first = await kernel.execute(ask("weather"));
    const data = first.pending?.data as { taskId: string; contextId: string };
    expect(first.output).toBe("Echo_Agent needs input: Which city?");
    expect(first.isError).toBeUndefined();
    expect(first.pending).toEqual({ kind: "input", message: "Which city?", data: { taskId: expect.any(String), contextId: expect.any(String) } });

    const resumed = await kernel.execute(ask("weather"), { answer: { action: "accept", content: "Paris" }, pending: first.pending });
    expect(resumed.output).toBe("Sunny in Paris");
    expect(resumed.metadata).toEqual({ taskId: data.taskId, contextId: data.contextId, state: "completed" });
    const answer = server.messages.at(-1)!;
    expect(answer.taskId).toBe(data.taskId);
    expect(answer.contextId).toBe(data.contextId);
  });

  it("suspends on auth-required with the agent's link, and tells the agent when authorization is done", async () => {
    const first = await kernel.execute(ask("login"));
    expect(first.output).toBe("Echo_Agent needs authorization: Sign in first\nhttps://auth.example/login");
    expect(first.pending).toMatchObject({ kind: "authorization", message: "Sign in first\nhttps://auth.example/login", url: "https://auth.example/login" });

    const resumed = await kernel.execute(ask("login"), { answer: { action: "accept" }, pending: first.pending });
    expect(resumed.output).toBe("Sunny in Authorization completed.");
  });

  it.each(["decline", "cancel"] as const)("ends the remote task canceled when the host answers %s", async (action) => {
    const first = await kernel.execute(ask("weather"));
    const { taskId } = first.pending!.data as { taskId: string };
    const result = await kernel.execute(ask("weather"), { answer: { action }, pending: first.pending });
    expect(result).toEqual({ isError: true, output: `Echo_Agent was not answered (${action}); its task was canceled`, metadata: { taskId } });
    expect(server.cancels).toContain(taskId);
    // Asked independently of weft: the agent's own record of the task.
    const client = await new ClientFactory().createFromUrl(server.origin);
    const task = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("refuses an answer that does not belong to an A2A task", async () => {
    const result = await kernel.execute(ask("weather"), { answer: { action: "accept", content: "Paris" }, pending: { kind: "question", message: "?" } });
    expect(result).toEqual({ isError: true, output: "Echo_Agent cannot resume: the answer does not belong to a pending A2A task" });
  });

  it("cancels the remote task when the caller aborts", async () => {
    const controller = new AbortController();
    const cancelled = server.nextCancel();
    const progress: ToolProgress[] = [];
    const result = await kernel.execute(ask("slow"), {
      signal: controller.signal,
      onProgress: (update) => {
        progress.push(update);
        if (update.message === "working: thinking") controller.abort();
      },
    });
    expect(result).toEqual({ isError: true, output: `${TOOL} was aborted`, metadata: { aborted: true } });
    const taskId = await cancelled;
    expect(server.cancels).toContain(taskId);
    expect(progress.at(-1)?.message).toBe("working: thinking");
  });

  it("reports an agent that cannot be reached as an error result", async () => {
    const unreachable = await startAgentServer({ name: "Gone Agent", streaming, skills: [{ id: "ask", name: "Ask", description: "Gone soon" }], run: echoAgent });
    const gone = await createTestKernel([[a2aPlugin, { agents: [{ card: unreachable.cardUrl }] }]], { logger: memoryLogger() });
    try {
      await unreachable.close();
      const result = await gone.execute({ name: "Gone_Agent__ask", arguments: { task: "hello" } });
      expect(result.isError).toBe(true);
      expect(result.output).toBe(`Gone_Agent call failed: connection refused (${unreachable.origin}/a2a/jsonrpc)`);
    } finally {
      await gone.close();
    }
  });
});
