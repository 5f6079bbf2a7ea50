import type { ServerResponse } from "node:http";
import { TaskState } from "@a2a-js/sdk";
import { isWeftError, memoryLogger, type ToolProgress } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin, { agent, NEW_CONVERSATION_ARGUMENT_DESCRIPTION, resolveAgentTools, TASK_ARGUMENT_DESCRIPTION } from "./index.js";
import { startAgentServer, startHttpServer, type AgentServer, type Turn } from "./test-fixtures/agent-server.js";

async function helper(turn: Turn): Promise<void> {
  if (turn.text === "slow") {
    turn.start();
    turn.status(TaskState.TASK_STATE_WORKING, "thinking");
    await turn.cancelled;
    return;
  }
  turn.reply(`You said: ${turn.text}`);
}

const TASK_SCHEMA = {
  type: "object",
  properties: {
    task: { type: "string", description: TASK_ARGUMENT_DESCRIPTION },
    new_conversation: { type: "boolean", description: NEW_CONVERSATION_ARGUMENT_DESCRIPTION },
  },
  required: ["task"],
};

/** Pinned here, not imported: the model reads it. */
const CONVERSATION =
  "Calls in one session continue one conversation with this agent: it remembers earlier calls, and a question it asked is answered by your next call; set new_conversation to true to start afresh.";

describe("@weft/plugin-a2a", () => {
  let research: AgentServer;
  let plain: { origin: string; close(): Promise<void> };
  /** Hung card requests, settled when the client gives up on them. */
  const hung: Promise<void>[] = [];

  beforeAll(async () => {
    research = await startAgentServer({
      name: "Research Agent",
      streaming: true,
      skills: [
        { id: "web.search", name: "Web search", description: "Searches the web and summarises what it finds" },
        { id: "cite", name: "Cite", description: "Formats a citation" },
      ],
      run: helper,
    });
    const hang = (res: ServerResponse) => hung.push(new Promise((resolve) => res.on("close", resolve)));
    plain = await startHttpServer({
      "/not-json.json": (res) => res.writeHead(200, { "content-type": "application/json" }).end("<html>hello</html>"),
      "/no-interfaces.json": (res) => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ name: "Broken", skills: [] })),
      "/hang.json": hang,
    });
  });

  afterAll(async () => {
    await research?.close();
    await plain?.close();
  });

  afterEach(() => {
    delete process.env.WEFT_A2A_TEST_TOKEN;
  });

  it("makes one tool per skill of each card, and warns about cards that cannot be loaded", async () => {
    const logger = memoryLogger();
    const kernel = await createTestKernel(
      [
        [
          a2aPlugin,
          {
            agents: [
              agent({ card: `${plain.origin}/missing/agent-card.json`, name: "ghost" }),
              agent({ card: research.cardUrl }),
              agent({ card: `${plain.origin}/not-json.json` }),
              agent({ card: `${plain.origin}/no-interfaces.json` }),
              agent({ card: "not a url" }),
            ],
          },
        ],
      ],
      { logger },
    );
    try {
      const tools = kernel.tools.list().map(({ name, description, inputSchema, source, timeoutMs }) => ({ name, description, inputSchema, source, timeoutMs }));
      expect(tools).toEqual([
        { name: "Research_Agent__cite", description: `Formats a citation ${CONVERSATION}`, inputSchema: TASK_SCHEMA, source: { kind: "a2a", id: "Research_Agent" }, timeoutMs: 300_000 },
        {
          name: "Research_Agent__web_search",
          description: `Searches the web and summarises what it finds ${CONVERSATION}`,
          inputSchema: TASK_SCHEMA,
          source: { kind: "a2a", id: "Research_Agent" },
          timeoutMs: 300_000,
        },
      ]);
      expect(logger.warnings()).toEqual([
        `A2A agent ghost (${plain.origin}/missing/agent-card.json): could not load its card: HTTP 404 Not Found; it contributes no tools`,
        `A2A agent ${plain.origin}/not-json.json: could not load its card: the response is not JSON (Unexpected token '<', "<html>hello</html>" is not valid JSON); it contributes no tools`,
        `A2A agent ${plain.origin}/no-interfaces.json: could not load its card: not an agent card: it lists no supportedInterfaces to call; it contributes no tools`,
        `A2A agent not a url: could not load its card: "not a url" is not a URL; it contributes no tools`,
      ]);
      const result = await kernel.execute({ name: "Research_Agent__cite", arguments: { task: "cite the A2A spec" } });
      expect(result.output).toBe("You said: cite the A2A spec");
    } finally {
      await kernel.close();
    }
  });

  it("names tools after the configured name and gives them the configured time limit", async () => {
    const tools = await resolveAgentTools([{ card: research.origin, name: "my helper", timeout: 1_000 }], { logger: memoryLogger() });
    expect(tools.map((tool) => [tool.name, tool.source, tool.timeoutMs])).toEqual([
      ["my_helper__web_search", { kind: "a2a", id: "my_helper" }, 1_000],
      ["my_helper__cite", { kind: "a2a", id: "my_helper" }, 1_000],
    ]);
  });

  it("gives agents whose cards share a name distinct source ids and tool names, with a warning", async () => {
    const logger = memoryLogger();
    const tools = await resolveAgentTools([{ card: research.cardUrl }, { card: `${research.origin}/` }], { logger });
    expect(tools.map((tool) => [tool.name, tool.source?.id])).toEqual([
      ["Research_Agent__web_search", "Research_Agent"],
      ["Research_Agent__cite", "Research_Agent"],
      ["Research_Agent_e7afbf__web_search", "Research_Agent_e7afbf"],
      ["Research_Agent_e7afbf__cite", "Research_Agent_e7afbf"],
    ]);
    expect(logger.warnings()).toEqual([
      `A2A agent ${research.origin}/: its name Research_Agent is taken by ${research.cardUrl}; its tools are named Research_Agent_e7afbf__*. Set name: in its config to choose one`,
    ]);
  });

  it("sends the headers, with ${VAR} expanded from the environment, on the card fetch and on every call", async () => {
    process.env.WEFT_A2A_TEST_TOKEN = "s3cret";
    const logger = memoryLogger();
    const before = research.requests.length;
    const kernel = await createTestKernel(
      [[a2aPlugin, { agents: [{ card: research.cardUrl, headers: { Authorization: "Bearer ${WEFT_A2A_TEST_TOKEN}", "X-Team": "weft" } }] }]],
      { logger },
    );
    try {
      const result = await kernel.execute({ name: "Research_Agent__cite", arguments: { task: "hi" } });
      expect(result.output).toBe("You said: hi");
      const seen = research.requests.slice(before);
      expect(seen.map((request) => request.path)).toEqual(["/.well-known/agent-card.json", "/a2a/jsonrpc"]);
      for (const request of seen) {
        expect(request.headers.authorization).toBe("Bearer s3cret");
        expect(request.headers["x-team"]).toBe("weft");
      }
      expect(logger.lines.some((line) => line.message.includes("s3cret"))).toBe(false);
    } finally {
      await kernel.close();
    }
  });

  it("refuses to start when a header names an unset variable, naming it", async () => {
    const error = await createTestKernel([[a2aPlugin, { agents: [{ card: research.cardUrl, name: "research", headers: { Authorization: "Bearer ${WEFT_A2A_TEST_TOKEN}" } }] }]], {
      logger: memoryLogger(),
    }).catch((caught: unknown) => caught);
    expect(isWeftError(error)).toBe(true);
    expect(error).toMatchObject({
      code: "CREDENTIAL_MISSING",
      message: `A2A agent research (${research.cardUrl}): header Authorization: environment variable WEFT_A2A_TEST_TOKEN is not set (set it, or write \${WEFT_A2A_TEST_TOKEN:-default} for a fallback)`,
    });
  });

  it("gives up on a card that does not answer within cardTimeout, and loads the rest", async () => {
    const logger = memoryLogger();
    const tools = await resolveAgentTools([{ card: `${plain.origin}/hang.json`, name: "stuck", cardTimeout: 300 }, { card: research.cardUrl }], { logger });
    expect(tools.map((tool) => tool.name)).toEqual(["Research_Agent__web_search", "Research_Agent__cite"]);
    expect(logger.warnings()).toEqual([`A2A agent stuck (${plain.origin}/hang.json): could not load its card: no answer within 300 ms; it contributes no tools`]);
    await hung.at(-1);
  });

  it("fails the load past the deadline, naming the agents not loaded, and stops their requests", async () => {
    const error = await resolveAgentTools([{ card: `${plain.origin}/hang.json`, name: "stuck" }], { deadline: 300, logger: memoryLogger() }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: "DEADLINE_EXCEEDED",
      message: `A2A agents did not load within the deadline of 300 ms; not loaded: stuck (${plain.origin}/hang.json). Check that they answer, or raise the deadline`,
    });
    await hung.at(-1);
  });

  it("fails the load when its signal aborts", async () => {
    const controller = new AbortController();
    const loading = resolveAgentTools([{ card: `${plain.origin}/hang.json` }], { signal: controller.signal, logger: memoryLogger() });
    controller.abort();
    await expect(loading).rejects.toMatchObject({ code: "ABORTED", message: `loading A2A agents was aborted; not loaded: ${plain.origin}/hang.json` });
  });

  it("talks to an agent that speaks only A2A v0.3 (its card and its JSON-RPC)", async () => {
    const legacy = await startAgentServer({
      name: "Old Agent",
      streaming: false,
      legacy: true,
      skills: [{ id: "echo", name: "Echo", description: "Echoes" }],
      run: async (turn) => {
        turn.start();
        turn.artifact("echo", `echo: ${turn.text}`);
        turn.status(TaskState.TASK_STATE_COMPLETED);
      },
    });
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: legacy.cardUrl }] }]], { logger: memoryLogger() });
    try {
      const card = await (await fetch(legacy.cardUrl)).json();
      expect(card).toMatchObject({ protocolVersion: "0.3", url: `${legacy.origin}/a2a/jsonrpc` });
      expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["Old_Agent__echo"]);
      const result = await kernel.execute({ name: "Old_Agent__echo", arguments: { task: "ping" } });
      expect(result.output).toBe("echo: ping");
      const versions = legacy.requests.filter((request) => request.path === "/a2a/jsonrpc").map((request) => request.headers["a2a-version"]);
      expect(versions.length).toBeGreaterThan(0);
      expect(new Set(versions)).toEqual(new Set(["0.3"]));
    } finally {
      await kernel.close();
      await legacy.close();
    }
  });

  it("cancels the remote task of a call that runs past its timeout", async () => {
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: research.cardUrl, timeout: 1_500 }] }]], { logger: memoryLogger() });
    try {
      const cancelled = research.nextCancel();
      const result = await kernel.execute({ name: "Research_Agent__cite", arguments: { task: "slow" } });
      expect(result).toEqual({ isError: true, output: "Research_Agent__cite timed out after 1500 ms", metadata: { timedOut: true, taskId: expect.any(String) } });
      expect(research.cancels).toContain(await cancelled);
    } finally {
      await kernel.close();
    }
  });

  it("cancels the remote tasks of calls in flight when the kernel closes", async () => {
    const kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: research.cardUrl }] }]], { logger: memoryLogger() });
    const cancelled = research.nextCancel();
    let working!: () => void;
    const started = new Promise<void>((resolve) => (working = resolve));
    const call = kernel.execute(
      { name: "Research_Agent__cite", arguments: { task: "slow" } },
      { onProgress: (update: ToolProgress) => update.message === "working: thinking" && working() },
    );
    await started;
    await kernel.close();
    expect(research.cancels).toContain(await cancelled);
    expect(await call).toMatchObject({ isError: true, output: "Research_Agent call was aborted" });
  });
});
