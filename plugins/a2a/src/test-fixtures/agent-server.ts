import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import express, { type RequestHandler } from "express";
import { A2A_PROTOCOL_VERSION, Role, TaskState, type AgentCard, type AgentCardSignatureGenerator, type Message, type Part, type Task } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { UserBuilder, agentCardHandler, jsonRpcHandler } from "@a2a-js/sdk/server/express";
import { legacyAgentCardRouter } from "@a2a-js/sdk/compat/v0_3/server/express";

/** One executor run, with helpers that publish A2A events the way a real agent does. */
export interface Turn {
  /** The text of the user's message. */
  readonly text: string;
  /** The task this message continues, when it continues one. */
  readonly task?: Task;
  readonly taskId: string;
  readonly contextId: string;
  /** Publishes the task (first event of every turn that works on a task). */
  start(): void;
  status(state: TaskState, text?: string, extraParts?: Part[]): void;
  artifact(name: string, text: string): void;
  /** Publishes an artifact made of these parts (text, data, files). */
  artifactParts(name: string, parts: Part[]): void;
  /** Publishes one chunk of a streamed artifact (`append` adds it to the artifact with that id). */
  chunk(artifactId: string, text: string, append: boolean, lastChunk: boolean): void;
  /** Answers with a message and no task. */
  reply(text: string): void;
  /** Settles when the client cancels this task (the canceled status is already published). */
  readonly cancelled: Promise<void>;
}

interface SkillSpec {
  id: string;
  name: string;
  description: string;
}

export interface AgentServerOptions {
  name: string;
  skills: SkillSpec[];
  streaming: boolean;
  /** Speak only A2A v0.3, as the many agents built on older SDKs do: a v0.3 card and v0.3 JSON-RPC. */
  legacy?: boolean;
  /** What the card says callers must authenticate with. */
  security?: Pick<AgentCard, "securitySchemes" | "securityRequirements">;
  /** Skills only the authenticated extended card lists (the card then offers one). */
  extendedSkills?: SkillSpec[];
  /** Signs the card the server serves. */
  sign?: AgentCardSignatureGenerator;
  /** For the v0.3 server (`startLegacyAgentServer`): the `signatures` its v0.3 card carries, given the card without them. */
  signV03?: (card: Record<string, unknown>) => { protected: string; signature: string }[];
  /** Express handlers that see A2A calls (`/a2a/jsonrpc`) first, with the JSON-RPC body parsed: to refuse or cut them. */
  intercept?: RequestHandler[];
  run(turn: Turn): Promise<void> | void;
}

export interface AgentServer {
  readonly origin: string;
  readonly cardUrl: string;
  /** Headers of every request, in order (card fetch and A2A calls). */
  readonly requests: { path: string; headers: IncomingHttpHeaders }[];
  /** User messages the executor received, in order. */
  readonly messages: Message[];
  /** Task ids the client cancelled, in order. */
  readonly cancels: string[];
  /** Settles with the id of the next task the client cancels. */
  nextCancel(): Promise<string>;
  close(): Promise<void>;
}

export function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

export function urlPart(url: string): Part {
  return { content: { $case: "url", value: url }, metadata: undefined, filename: "", mediaType: "text/uri-list" };
}

function agentMessage(parts: Part[], taskId: string, contextId: string): Message {
  return { messageId: randomUUID(), contextId, taskId, role: Role.ROLE_AGENT, parts, metadata: undefined, extensions: [], referenceTaskIds: [] };
}

class ScriptedExecutor implements AgentExecutor {
  readonly #running = new Map<string, { contextId: string; cancelled(): void }>();
  constructor(
    private readonly server: { messages: Message[]; cancels: string[]; onCancel: ((taskId: string) => void)[] },
    private readonly run: AgentServerOptions["run"],
  ) {}

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    this.server.cancels.push(taskId);
    const running = this.#running.get(taskId);
    const contextId = running?.contextId ?? "";
    bus.publish(
      AgentEvent.statusUpdate({
        taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_CANCELED, message: agentMessage([textPart("stopped on request")], taskId, contextId), timestamp: new Date().toISOString() },
        metadata: undefined,
      }),
    );
    running?.cancelled();
    for (const listener of this.server.onCancel.splice(0)) listener(taskId);
  };

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId } = context;
    const message = context.userMessage;
    this.server.messages.push(message);
    const text = message.parts.map((part) => (part.content?.$case === "text" ? part.content.value : "")).join("");
    let onCancel!: () => void;
    const cancelled = new Promise<void>((resolve) => (onCancel = resolve));
    this.#running.set(taskId, { contextId, cancelled: onCancel });
    const status = (state: TaskState, said?: string, extraParts: Part[] = []) =>
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state,
            message: said === undefined ? undefined : agentMessage([textPart(said), ...extraParts], taskId, contextId),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
    const turn: Turn = {
      text,
      task: context.task,
      taskId,
      contextId,
      cancelled,
      start: () =>
        bus.publish(
          AgentEvent.task(
            context.task ?? {
              id: taskId,
              contextId,
              status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
              artifacts: [],
              history: [message],
              metadata: undefined,
            },
          ),
        ),
      status,
      artifact: (name, said) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId: randomUUID(), name, description: "", parts: [textPart(said)], metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        ),
      artifactParts: (name, parts) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId: randomUUID(), name, description: "", parts, metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        ),
      chunk: (artifactId, said, append, lastChunk) =>
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId, name: "chunked", description: "", parts: [textPart(said)], metadata: undefined, extensions: [] },
            append,
            lastChunk,
            metadata: undefined,
          }),
        ),
      reply: (said) => bus.publish(AgentEvent.message(agentMessage([textPart(said)], "", contextId))),
    };
    try {
      await this.run(turn);
    } finally {
      this.#running.delete(taskId);
    }
  };
}

/** A caller with a bearer token counts as authenticated (the extended card is for them); the agent checks nothing else. */
const bearerUser = async (req: express.Request) =>
  req.headers.authorization?.startsWith("Bearer ") ? { isAuthenticated: true, userName: "bearer" } : UserBuilder.noAuthentication();

function cardSkill(skill: SkillSpec): AgentCard["skills"][number] {
  return { ...skill, tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
}

/** A real A2A server (the sdk's request handler over JSON-RPC, on express) on 127.0.0.1. */
export async function startAgentServer(options: AgentServerOptions): Promise<AgentServer> {
  const requests: AgentServer["requests"] = [];
  const state = { messages: [] as Message[], cancels: [] as string[], onCancel: [] as ((taskId: string) => void)[] };
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
    supportedInterfaces: [{ url: `${origin}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: options.legacy ? "0.3" : A2A_PROTOCOL_VERSION }],
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: options.streaming, pushNotifications: false, extensions: [], extendedAgentCard: options.extendedSkills !== undefined },
    securitySchemes: options.security?.securitySchemes ?? {},
    securityRequirements: options.security?.securityRequirements ?? [],
    defaultInputModes: ["text/plain"],
    defaultOutputModes: ["text/plain"],
    skills: options.skills.map(cardSkill),
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(
    card,
    new InMemoryTaskStore(),
    new ScriptedExecutor(state, options.run),
    undefined,
    undefined,
    undefined,
    options.extendedSkills ? { ...card, skills: [...card.skills, ...options.extendedSkills.map(cardSkill)] } : undefined,
    options.sign,
  );
  if (options.legacy) {
    // A v0.3 server serves its v0.3 card whatever version the client announces.
    app.use("/.well-known/agent-card.json", (req, _res, next) => {
      req.headers["a2a-version"] = "0.3";
      next();
    }, legacyAgentCardRouter({ agentCardProvider: requestHandler }));
  } else {
    app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: requestHandler }));
  }
  if (options.intercept) app.use("/a2a/jsonrpc", express.json(), ...options.intercept);
  app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler, userBuilder: bearerUser, legacyCompat: { enabled: options.legacy === true } }));
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

/** A plain HTTP server for cards that fail: `routes` maps a path to a handler. Unknown paths 404. */
export async function startHttpServer(routes: Record<string, (res: import("node:http").ServerResponse) => void>): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? ""];
    if (route) route(res);
    else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
