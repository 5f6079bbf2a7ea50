import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { memoryLogger, type Kernel, type MemoryLogger, type ToolCallRequest } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin, { Conversations } from "./index.js";
import { startAgentServer, type AgentServer, type AgentServerOptions, type Turn } from "./test-fixtures/agent-server.js";
import { startLegacyAgentServer } from "./test-fixtures/legacy-agent-server.js";

/** Runs `call` in the kernel session `id` (opened on first use), as an agent's session would. */
async function inSession(kernel: Kernel, id: string, call: ToolCallRequest) {
  const session = await kernel.session({ id });
  try {
    return await session.execute(call);
  } finally {
    await session.dispose();
  }
}

/** An agent that remembers what was said in each context, and asks a question it needs answered. */
function rememberingAgent(): (turn: Turn) => Promise<void> {
  const said = new Map<string, string[]>();
  return async (turn) => {
    if (turn.task) {
      turn.start();
      turn.artifact("answer", `Booked for ${turn.text}`);
      turn.status(TaskState.TASK_STATE_COMPLETED);
      return;
    }
    if (turn.text === "book a table") {
      turn.start();
      turn.status(TaskState.TASK_STATE_INPUT_REQUIRED, "For how many?");
      return;
    }
    const heard = [...(said.get(turn.contextId) ?? []), turn.text];
    said.set(turn.contextId, heard);
    turn.reply(`So far: ${heard.join(", ")}`);
  };
}

const TOOL = "Memo_Agent__chat";
const say = (task: string, extra: Record<string, unknown> = {}) => ({ name: TOOL, arguments: { task, ...extra } });

describe.each([
  { peer: "@a2a-js/sdk 1.3.0", start: startAgentServer },
  { peer: "@a2a-js/sdk 0.3.14", start: startLegacyAgentServer },
])("conversations with a $peer agent", ({ start }) => {
  let server: AgentServer;
  let conversations: Conversations;
  let kernel: Kernel;
  let logger: MemoryLogger;
  const options = (): AgentServerOptions => ({
    name: "Memo Agent",
    streaming: true,
    skills: [{ id: "chat", name: "Chat", description: "Talks" }],
    run: rememberingAgent(),
  });

  beforeAll(async () => {
    server = await start(options());
    conversations = new Conversations();
    logger = memoryLogger();
    kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl }], conversations }]], { logger });
  });

  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  it("continues one remote context across three calls in a session", async () => {
    const session = "three-calls";
    expect((await inSession(kernel, session, say("apples"))).output).toBe("So far: apples");
    expect((await inSession(kernel, session, say("pears"))).output).toBe("So far: apples, pears");
    expect((await inSession(kernel, session, say("plums"))).output).toBe("So far: apples, pears, plums");
    const contexts = new Set(server.messages.slice(-3).map((message) => message.contextId));
    expect(contexts.size).toBe(1);
    expect(conversations.session("three-calls")).toEqual({ [TOOL]: { contextId: [...contexts][0] } });
  });

  it("keeps sessions apart, and starts afresh on new_conversation", async () => {
    await inSession(kernel, "a", say("red"));
    expect((await inSession(kernel, "b", say("blue"))).output).toBe("So far: blue");
    expect((await inSession(kernel, "a", say("green"))).output).toBe("So far: red, green");
    expect((await inSession(kernel, "a", say("white", { new_conversation: true }))).output).toBe("So far: white");
    expect((await inSession(kernel, "a", say("black"))).output).toBe("So far: white, black");
  });

  it("continues the task the agent left waiting for input with the next call, not a new one", async () => {
    const session = "booking";
    const asked = await inSession(kernel, session, say("book a table"));
    expect(asked.output).toBe("Memo_Agent needs input: For how many?");
    const { taskId, contextId } = asked.pending!.data as { taskId: string; contextId: string };
    const answered = await inSession(kernel, session, say("four"));
    expect(answered.output).toBe("Booked for four");
    expect(answered.metadata).toMatchObject({ taskId, contextId, state: "completed" });
    expect(server.messages.at(-1)).toMatchObject({ taskId, contextId });
    expect(conversations.session("booking")).toEqual({ [TOOL]: { contextId } });
  });

  it("cancels the task left waiting when the model starts a new conversation", async () => {
    const session = "abandoned";
    const asked = await inSession(kernel, session, say("book a table"));
    const { taskId, contextId } = asked.pending!.data as { taskId: string; contextId: string };
    const fresh = await inSession(kernel, session, say("hello", { new_conversation: true }));
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

  it("continues the conversation from its JSON after a restart", async () => {
    await inSession(kernel, "restart", say("one"));
    const stored = JSON.stringify(conversations.session("restart"));
    const restored = new Conversations();
    restored.restore("restart", JSON.parse(stored));
    const again = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl }], conversations: restored }]], { logger: memoryLogger() });
    try {
      expect((await inSession(again, "restart", say("two"))).output).toBe("So far: one, two");
    } finally {
      await again.close();
    }
  });
});

describe("a conversation across processes", () => {
  const run = promisify(execFile);
  const fixture = fileURLToPath(new URL("./test-fixtures/conversation-process.mjs", import.meta.url));
  // The built plugin (npm test builds every package first): each call runs in a node process of its own.
  const plugin = new URL("../dist/index.js", import.meta.url).href;

  it("continues in a new process from the session's stored JSON", async () => {
    const server = await startAgentServer({ name: "Memo Agent", streaming: false, skills: [{ id: "chat", name: "Chat", description: "Talks" }], run: rememberingAgent() });
    try {
      const call = async (task: string, stored: string) => {
        const { stdout } = await run(process.execPath, [fixture, plugin, server.cardUrl, task, stored], { timeout: 30_000 });
        return JSON.parse(stdout) as { output: string; session: Record<string, unknown> };
      };
      const first = await call("one", "{}");
      expect(first.output).toBe("So far: one");
      const second = await call("two", JSON.stringify(first.session));
      expect(second.output).toBe("So far: one, two");
      const third = await call("three", JSON.stringify(second.session));
      expect(third.output).toBe("So far: one, two, three");
      expect(new Set(server.messages.map((message) => message.contextId)).size).toBe(1);
    } finally {
      await server.close();
    }
  }, 60_000);
});
