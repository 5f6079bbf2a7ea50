import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { Role, type TaskState, type Message as CoreMessage } from "@a2a-js/sdk";
import type { AgentCard, Message, Part, Task, TaskStatus } from "a2a-sdk-v03";
import { DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "a2a-sdk-v03/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler } from "a2a-sdk-v03/server/express";
import { TASK_STATE_NAMES } from "../task-state.js";
import type { AgentServer, AgentServerOptions, Turn } from "./agent-server.js";

/** The v1.0 states the scripts use, as v0.3 spells them (the names weft reads them by). */
const STATES = TASK_STATE_NAMES as Partial<Record<TaskState, TaskStatus["state"]>>;
const FINAL = new Set<TaskStatus["state"]>(["completed", "failed", "canceled", "rejected", "input-required", "auth-required"]);

const text = (value: string): Part => ({ kind: "text", text: value });

function agentMessage(said: string, taskId: string | undefined, contextId: string): Message {
  return { kind: "message", messageId: randomUUID(), role: "agent", parts: [text(said)], taskId, contextId };
}

/** The message as the v1.0 scripts and assertions read it (they look at ids and text only). */
function coreMessage(message: Message): CoreMessage {
  return {
    messageId: message.messageId,
    contextId: message.contextId ?? "",
    taskId: message.taskId ?? "",
    role: Role.ROLE_USER,
    parts: message.parts.map((part) => ({
      content: { $case: "text", value: part.kind === "text" ? part.text : "" },
      metadata: undefined,
      filename: "",
      mediaType: "text/plain",
    })),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

class LegacyExecutor implements AgentExecutor {
  readonly #running = new Map<string, { contextId: string; cancelled(): void; bus: ExecutionEventBus }>();
  constructor(
    private readonly server: { messages: CoreMessage[]; cancels: string[]; onCancel: ((taskId: string) => void)[] },
    private readonly run: AgentServerOptions["run"],
  ) {}

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.server.cancels.push(taskId);
    const running = this.#running.get(taskId);
    const contextId = running?.contextId ?? "";
    bus.publish({
      kind: "status-update",
      taskId,
      contextId,
      status: { state: "canceled", message: agentMessage("stopped on request", taskId, contextId), timestamp: new Date().toISOString() },
      final: true,
    });
    bus.finished();
    running?.cancelled();
    for (const listener of this.server.onCancel.splice(0)) listener(taskId);
  };

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    this.server.messages.push(coreMessage(userMessage));
    let onCancel!: () => void;
    const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
    this.#running.set(taskId, { contextId, cancelled: onCancel, bus });
    const status = (state: TaskState, said?: string) => {
      const spelled = STATES[state] ?? "unknown";
      bus.publish({
        kind: "status-update",
        taskId,
        contextId,
        status: { state: spelled, message: said === undefined ? undefined : agentMessage(said, taskId, contextId), timestamp: new Date().toISOString() },
        final: FINAL.has(spelled),
      });
    };
    const chunk = (artifactId: string, said: string, append: boolean, lastChunk: boolean) =>
      bus.publish({ kind: "artifact-update", taskId, contextId, artifact: { artifactId, name: "chunked", parts: [text(said)] }, append, lastChunk });
    const task: Task = context.task ?? {
      kind: "task",
      id: taskId,
      contextId,
      status: { state: "submitted", timestamp: new Date().toISOString() },
      artifacts: [],
      history: [userMessage],
    };
    const turn: Turn = {
      text: userMessage.parts.map((part) => (part.kind === "text" ? part.text : "")).join(""),
      ...(context.task ? { task: { id: taskId, contextId, status: undefined, artifacts: [], history: [], metadata: undefined } } : {}),
      taskId,
      contextId,
      cancelled,
      start: () => bus.publish(task),
      status,
      artifact: (name, said) => bus.publish({ kind: "artifact-update", taskId, contextId, artifact: { artifactId: randomUUID(), name, parts: [text(said)] }, lastChunk: true }),
      artifactParts: () => {
        throw new Error("the v0.3 fixture publishes text artifacts only");
      },
      chunk,
      reply: (said) => bus.publish(agentMessage(said, undefined, contextId)),
    };
    try {
      await this.run(turn);
    } finally {
      this.#running.delete(taskId);
      bus.finished();
    }
  };
}

/** A real A2A v0.3 server (`@a2a-js/sdk` 0.3.14's request handler over JSON-RPC, on express) on 127.0.0.1. */
export async function startLegacyAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const requests: AgentServer["requests"] = [];
  const state = { messages: [] as CoreMessage[], cancels: [] as string[], onCancel: [] as ((taskId: string) => void)[] };
  const app = express();
  app.use((req, _res, next) => {
    requests.push({ path: req.path, headers: req.headers });
    next();
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const card: AgentCard = {
    name: options.name,
    description: `${options.name} for tests`,
    url: `${origin}/a2a/jsonrpc`,
    preferredTransport: "JSONRPC",
    protocolVersion: "0.3.0",
    version: "1.0.0",
    capabilities: { streaming: options.streaming, pushNotifications: false },
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: options.skills.map((skill) => ({ ...skill, tags: [] })),
  };
  if (options.signV03) card.signatures = options.signV03(card as unknown as Record<string, unknown>);
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new LegacyExecutor(state, options.run));
  app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler }));
  if (options.intercept) app.use("/a2a/jsonrpc", express.json(), ...options.intercept);
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication }));
  return {
    origin,
    cardUrl: `${origin}/.well-known/agent-card.json`,
    requests,
    messages: state.messages,
    cancels: state.cancels,
    nextCancel: () => new Promise((resolve) => state.onCancel.push(resolve)),
    // Closing twice is fine: a test may take the agent down on purpose.
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) return resolve();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
