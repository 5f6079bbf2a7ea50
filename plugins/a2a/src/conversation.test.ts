import { TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { memoryLogger, type Kernel, type KernelSession, type MemoryLogger, type ToolCallRequest, type ToolResult } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin, { CONVERSATIONS_SERVICE } from "./index.js";
import { startAgentServer, type AgentServer, type AgentServerOptions } from "./test-fixtures/agent-server.js";
import { startLegacyAgentServer } from "./test-fixtures/legacy-agent-server.js";
import { rememberingAgent } from "./test-fixtures/remembering-agent.js";

/** The kernel's sessions by id, opened on first use and kept open, as an agent keeps its session. */
function sessionsOf(kernel: () => Kernel) {
  const open = new Map<string, Promise<KernelSession>>();
  const session = (id: string) => {
    let opened = open.get(id);
    if (!opened) {
      opened = kernel().session({ id });
      open.set(id, opened);
    }
    return opened;
  };
  return {
    session,
    inSession: async (id: string, call: ToolCallRequest) => (await session(id)).execute(call),
    /** What the session keeps of its conversations with the remote agents (its `a2a.conversations` state). */
    conversations: async (id: string) => (await session(id)).saveState()[CONVERSATIONS_SERVICE],
  };
}

const TOOL = "Memo_Agent__chat";

/** The remote task a `pending` result waits on. */
function pendingTask(result: ToolResult): { taskId: string; contextId: string } {
  if (!result.pending) throw new Error(`expected a pending result, got ${result.output}`);
  return result.pending.data as { taskId: string; contextId: string };
}
const say = (task: string, extra: Record<string, unknown> = {}) => ({ name: TOOL, arguments: { task, ...extra } });

describe.each([
  { peer: "@a2a-js/sdk 1.3.0", start: startAgentServer },
  { peer: "@a2a-js/sdk 0.3.14", start: startLegacyAgentServer },
])("conversations with a $peer agent", ({ start }) => {
  let server: AgentServer;
  let kernel: Kernel;
  let logger: MemoryLogger;
  const { session: openSession, inSession, conversations } = sessionsOf(() => kernel);
  const options = (): AgentServerOptions => ({
    name: "Memo Agent",
    streaming: true,
    skills: [{ id: "chat", name: "Chat", description: "Talks" }],
    run: rememberingAgent(),
  });

  beforeAll(async () => {
    server = await start(options());
    logger = memoryLogger();
    kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl }] }]], { logger });
  });

  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  it("continues one remote context across three calls in a session", async () => {
    const session = "three-calls";
    expect((await inSession(session, say("apples"))).output).toBe("So far: apples");
    expect((await inSession(session, say("pears"))).output).toBe("So far: apples, pears");
    expect((await inSession(session, say("plums"))).output).toBe("So far: apples, pears, plums");
    const contexts = new Set(server.messages.slice(-3).map((message) => message.contextId));
    expect(contexts.size).toBe(1);
    expect(await conversations("three-calls")).toEqual({ [TOOL]: { contextId: [...contexts][0] } });
  });

  it("keeps sessions apart, and starts afresh on new_conversation", async () => {
    await inSession("a", say("red"));
    expect((await inSession("b", say("blue"))).output).toBe("So far: blue");
    expect((await inSession("a", say("green"))).output).toBe("So far: red, green");
    expect((await inSession("a", say("white", { new_conversation: true }))).output).toBe("So far: white");
    expect((await inSession("a", say("black"))).output).toBe("So far: white, black");
  });

  it("continues the task the agent left waiting for input with the next call, not a new one", async () => {
    const session = "booking";
    const asked = await inSession(session, say("book a table"));
    expect(asked.output).toBe("Memo_Agent needs input: For how many?");
    const { taskId, contextId } = pendingTask(asked);
    const answered = await inSession(session, say("four"));
    expect(answered.output).toBe("Booked for four");
    expect(answered.metadata).toMatchObject({ taskId, contextId, state: "completed" });
    expect(server.messages.at(-1)).toMatchObject({ taskId, contextId });
    expect(await conversations("booking")).toEqual({ [TOOL]: { contextId } });
  });

  it("cancels the task left waiting when the model starts a new conversation", async () => {
    const session = "abandoned";
    const asked = await inSession(session, say("book a table"));
    const { taskId, contextId } = pendingTask(asked);
    const fresh = await inSession(session, say("hello", { new_conversation: true }));
    expect(fresh.output).toBe("So far: hello");
    expect(logger.warnings()).toEqual([]);
    expect(server.messages.at(-1)?.contextId).not.toBe(contextId);
    // Asked independently of weft (a 0.3 server cancels an idle task in its store without calling the executor).
    const compat = { legacyCompat: { enabled: true } };
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, { transports: [new JsonRpcTransportFactory(compat)], cardResolver: new DefaultAgentCardResolver(compat) }),
    ).createFromUrl(server.origin);
    const task = await client.getTask({ tenant: "", id: taskId, historyLength: 0 });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it("keeps the open task with the session's state, and continues both from its JSON on another kernel", async () => {
    await inSession("restart", say("one"));
    const asked = await inSession("restart", say("book a table"));
    const { taskId, contextId } = pendingTask(asked);
    expect(await conversations("restart")).toEqual({ [TOOL]: { contextId, openTaskId: taskId } });
    const stored = JSON.stringify((await openSession("restart")).saveState());
    const again = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl }] }]], { logger: memoryLogger() });
    try {
      const resumed = sessionsOf(() => again);
      (await resumed.session("restart")).restoreState(JSON.parse(stored));
      expect(await resumed.inSession("restart", say("four"))).toMatchObject({ output: "Booked for four", metadata: { taskId, contextId } });
      expect((await resumed.inSession("restart", say("two"))).output).toBe("So far: one, two");
    } finally {
      await again.close();
    }
  });

  it("forgets a session's conversations when the session closes, and refuses a stored value of another shape", async () => {
    const session = await kernel.session({ id: "closing" });
    await session.execute(say("hello"));
    await session.dispose();
    const reopened = await kernel.session({ id: "closing" });
    expect(reopened.saveState()).toEqual({});
    reopened.restoreState({ [CONVERSATIONS_SERVICE]: { [TOOL]: { contextId: 7 } } });
    expect(logger.warnings()).toEqual([`the "a2a.conversations" service could not restore the state of session closing: the stored value is not { [tool]: { contextId, openTaskId? } }`]);
    await reopened.dispose();
  });
});
