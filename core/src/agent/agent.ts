import { randomUUID } from "node:crypto";
import { MaxIterationsError, WeftError } from "@weft/sdk";
import type {
  AnyTool,
  ChatModel,
  Effort,
  FeedbackEvent,
  Kernel,
  Message,
  OutputRequest,
  PendingAnswer,
  Registrable,
  Suspension,
  ToolSubset,
  WaitFor,
} from "@weft/sdk";
import type { TodoItem } from "../builtins/todo-list.js";
import { Compactor, resolveCompaction, type CompactionOptions } from "./compaction.js";
import { EventChannel } from "./event-channel.js";
import { Session } from "./session.js";
import { provideSessionServices } from "./session-services.js";
import type { PendingTurn, SessionState } from "./session-state.js";
import { memorySessionStore, serialisesOnSave, type SessionStore } from "./session-store.js";
import { stopTap, type PrepareStep, type StopCondition } from "./stop-conditions.js";
import { localAgentTools, type LocalAgentConfig } from "./local-agents.js";
import { subagentTool, type AgentToolOptions } from "./subagent-tool.js";
import { toolSpecs } from "./tool-specs.js";
import type { AgentLimits } from "./turn-limits.js";
import { Turn, type AgentResponse, type TurnSettings, type TurnStart } from "./turn.js";
import type { TurnTally } from "./turn-tally.js";
import { WriteAhead, foldRecords } from "./write-ahead.js";

/** Anything that carries a kernel: a toolkit plugs in as it is. */
export interface KernelHost {
  readonly kernel: Kernel;
  readonly waitFor?: WaitFor;
}

export interface AgentOptions {
  model: ChatModel;
  /** The kernel whose tools, hooks and execute path the agent uses; or give `toolkit`. */
  kernel?: Kernel;
  toolkit?: KernelHost;
  /** Model rounds per `process` call; 0 = no limit. Default 50: a turn that loops stops with MaxIterationsError. */
  maxIterations?: number;
  /** Budgets per turn and per session (model calls, tool calls, tokens, cost, wall time): reaching one ends the turn with status `limit`. */
  limits?: AgentLimits;
  /** Conditions checked after each step with tool calls; the first that holds ends the turn (status `incomplete`, reason `stop-condition`). */
  stopWhen?: StopCondition | StopCondition[];
  /** Changes the model, effort, tools or messages of each model call before it is made. */
  prepareStep?: PrepareStep;
  /** When and how to compact the transcript; `false` turns automatic compaction off. */
  compaction?: CompactionOptions | false;
  /** Answers suspensions as they happen; without one, `process` returns `status: "pending"`. */
  waitFor?: WaitFor;
  /**
   * Where sessions are saved after every turn, to be resumed by id. Without one, a session lives in
   * the agent alone until it closes (nothing is copied or kept elsewhere).
   */
  store?: SessionStore;
  /** Run the tool calls of one model reply concurrently (default true); results keep call order. */
  parallelToolCalls?: boolean;
  /** Identical consecutive calls that trip the loop guard (default 3); 0 turns the guard off. */
  repeatLimit?: number;
  /** The first session's id: with a store, a fresh agent resumes that session. */
  sessionId?: string;
  /** The agent's name, which hooks and tools see as `context.agent` (several agents on one kernel). */
  name?: string;
  /** Subagents every session gets as tools (the config's `agents:` entries with `local`). */
  subagents?: LocalAgentConfig[];
}

/** A session's tools: a subset of the kernel's (`only`, `exclude`) and tools of its own (`add`). */
interface SessionToolOptions extends ToolSubset {
  add?: AnyTool[];
}

export interface SessionOptions {
  /** The session's system prompt; the kernel's prompt sections (the skills catalog) follow it. */
  prompt?: string;
  /**
   * Tools only this session may call, removed when it ends (a list), or which of the kernel's tools
   * the session sees plus its own (`{ only, exclude, add }`).
   */
  tools?: AnyTool[] | SessionToolOptions;
  /** Skills (or any Registrable) whose tools and prompt sections the session gets. */
  skills?: Registrable | Registrable[];
  /**
   * A transcript to continue (from another agent or provider), instead of the stored one. Its messages
   * are taken as they are, not copied, and frozen (see frozen-messages.ts): change a copy, not them.
   */
  messages?: Message[];
  sessionId?: string;
}

export interface TurnOptions {
  signal?: AbortSignal;
  /** A typed answer: the turn's final answer validated against this schema (`response.output`). Pass it again to `resume`. */
  output?: OutputRequest;
}

/** What `stream` yields: the feedback events of the turn, then the response. */
export type AgentEvent = FeedbackEvent | { type: "response"; response: AgentResponse };

export interface Agent {
  readonly kernel: Kernel;
  readonly model: ChatModel;
  /** The current session's id, once one has started. */
  readonly sessionId: string | undefined;
  /** Starts a session (closing the current one); loads it from the store when it was saved before. */
  startSession(options?: SessionOptions): Promise<void>;
  /** Keeps the system prompt and equipment, drops the transcript, todo list, any pending turn and the state plugins keep with the session. */
  resetSession(): Promise<void>;
  /** Ends the session (aborting a running turn) and takes back its tools and skills. */
  close(): Promise<void>;
  /** Runs one turn. Rejects with MaxIterationsError at the iteration limit, and an ABORTED error on abort. */
  process(input: string, options?: TurnOptions): Promise<AgentResponse>;
  /** The same turn as live events, ending with `{ type: "response" }`. Leaving the loop early aborts the turn. */
  stream(input: string, options?: TurnOptions): AsyncIterable<AgentEvent>;
  /**
   * Answers the pending request and continues the turn. Without an answer, continues a turn the process
   * stopped in (see `interrupted()`): calls that completed keep their results, calls that were running
   * run again when their tool is idempotent and are otherwise reported to the model as interrupted.
   */
  resume(answer?: PendingAnswer, options?: TurnOptions): Promise<AgentResponse>;
  streamResume(answer?: PendingAnswer, options?: TurnOptions): AsyncIterable<AgentEvent>;
  /** The request a pending turn waits for; before `startSession`, read from the store for `sessionId`. */
  pending(): Promise<Suspension | undefined>;
  /** Whether a process stopped in the session's last turn (a store with `append` kept its steps); `resume()` continues it. */
  interrupted(): Promise<boolean>;
  /** The provider-neutral transcript (system message first), JSON-serialisable. */
  messages(): Message[];
  todos(): TodoItem[];
  /** Compacts the transcript now, whatever its size. */
  compact(options?: TurnOptions): Promise<void>;
  changeModel(model: string): void;
  changeEffort(effort: Effort): void;
  /**
   * This agent as a tool of another: each call runs a turn in a child session of its own (on this
   * agent's model, store and limits), and the tool result is its final answer. See `subagentTool`.
   */
  asTool(options: AgentToolOptions): AnyTool;
}

export function createAgent(options: AgentOptions): Agent {
  return new WeftAgent(options);
}

interface Running {
  controller: AbortController;
  channel?: EventChannel<AgentEvent>;
  tally?: TurnTally;
  done: Promise<void>;
}

class WeftAgent implements Agent {
  readonly kernel: Kernel;
  readonly #options: AgentOptions;
  readonly model: ChatModel;
  readonly #settings: TurnSettings;
  readonly #waitFor: WaitFor | undefined;
  /** Where this agent's sessions are saved: the given store. Without one, nobody could read them back, so none is saved. */
  readonly #store: SessionStore | undefined;
  /** Without a given store, where the child sessions of `asTool` calls wait to be resumed; made on first use. */
  #childStore: SessionStore | undefined;
  readonly #compactor: Compactor;
  readonly #name: string | undefined;
  readonly #stopWhen: StopCondition[];
  readonly #prepareStep: PrepareStep | undefined;
  #firstSessionId: string | undefined;
  #session: Session | undefined;
  #writeAhead: WriteAhead | undefined;
  #running: Running | undefined;

  constructor(options: AgentOptions) {
    const kernel = options.kernel ?? options.toolkit?.kernel;
    if (!kernel) throw new WeftError("CONFIG_INVALID", "createAgent needs a kernel or a toolkit: createAgent({ model, toolkit })");
    this.kernel = kernel;
    this.#options = options;
    this.model = options.model;
    this.#waitFor = options.waitFor ?? options.toolkit?.waitFor;
    this.#store = options.store;
    this.#firstSessionId = options.sessionId;
    this.#name = options.name;
    this.#settings = {
      maxIterations: options.maxIterations ?? 50,
      parallelToolCalls: options.parallelToolCalls ?? true,
      repeatLimit: options.repeatLimit ?? 3,
      limits: options.limits ?? {},
    };
    this.#stopWhen = [options.stopWhen ?? []].flat();
    this.#prepareStep = options.prepareStep;
    this.#compactor = new Compactor(resolveCompaction(options.compaction), (event) => this.#emit(event), (reply, durationMs) => {
      if (reply.stats) this.#running?.tally?.addSideCall(reply.stats, durationMs);
    });
  }

  get sessionId(): string | undefined {
    return this.#session?.id;
  }

  async startSession(options: SessionOptions = {}): Promise<void> {
    this.#assertIdle();
    if (this.#session) await this.close();
    await this.#start(options);
  }

  async #start(options: SessionOptions): Promise<void> {
    const id = options.sessionId ?? this.#firstSessionId ?? randomUUID();
    this.#firstSessionId = undefined;
    const stored = options.messages ? undefined : await this.#load(id);
    const { prompt, messages } = splitPrompt(options.prompt ?? stored?.prompt, options.messages ?? stored?.messages ?? []);
    const tools = Array.isArray(options.tools) ? { add: options.tools } : (options.tools ?? {});
    const scope = await this.kernel.session({ id, ...(this.#name !== undefined ? { agent: this.#name } : {}), tools });
    const session = new Session(id, prompt, scope, { ...stored, messages });
    try {
      for (const tool of tools.add ?? []) scope.tools.add(tool);
      if (this.#options.subagents?.length) for (const tool of await this.#subagentTools()) scope.tools.add(tool);
      for (const skills of [options.skills ?? []].flat()) await skills.register(scope);
      await scope.settle();
      provideSessionServices(scope, session);
      // Every service that keeps state with the session (the agent's, a plugin's) gets it back before the first call.
      scope.restoreState(stored?.services ?? {});
      this.#compactor.tapStages(scope);
      // The agent's own loop controls are session hooks, beside any a plugin taps.
      for (const [index, condition] of this.#stopWhen.entries()) scope.hooks.stopWhen.tap(stopTap(condition, index));
      const prepareStep = this.#prepareStep;
      if (prepareStep) scope.hooks.prepareStep.tap(async (plan, step) => (await prepareStep(plan, step)) ?? plan);
      // Everything the session reports (its tool calls included) joins the running turn's stream, while
      // there is one: a turn of `process` has none, and its events are then built only for other observers.
      scope.hooks.feedback.tap({ active: () => this.#running?.channel !== undefined }, (event) => void this.#running?.channel?.push(event));
    } catch (error) {
      await scope.dispose();
      throw error;
    }
    this.#session = session;
    this.#writeAhead = new WriteAhead(this.#store, id);
    // A written-ahead session exists in the store from its start, so a turn's records have a session (and prompt) to belong to.
    if (this.#store && (options.messages || (!stored && this.#store.append))) await this.#save(session);
    this.#emit({ type: "session.started", sessionId: id });
  }

  async resetSession(): Promise<void> {
    this.#assertIdle();
    const session = this.#session;
    if (!session) return;
    session.reset();
    await this.#save(session);
    this.#emit({ type: "session.reset", sessionId: session.id });
  }

  async close(): Promise<void> {
    const running = this.#running;
    if (running) {
      running.controller.abort(new WeftError("ABORTED", "the session was closed"));
      await running.done;
    }
    const session = this.#session;
    if (!session) return;
    this.#session = undefined;
    await session.scope.dispose();
    this.kernel.emit({ type: "session.closed", sessionId: session.id });
  }

  process(input: string, options?: TurnOptions): Promise<AgentResponse> {
    return this.#settle({ input }, options);
  }

  stream(input: string, options?: TurnOptions): AsyncIterable<AgentEvent> {
    return this.#turn({ input }, options);
  }

  resume(answer?: PendingAnswer, options?: TurnOptions): Promise<AgentResponse> {
    return this.#settle({ answer }, options);
  }

  streamResume(answer?: PendingAnswer, options?: TurnOptions): AsyncIterable<AgentEvent> {
    return this.#turn({ answer }, options);
  }

  async pending(): Promise<Suspension | undefined> {
    const suspension = (await this.#pendingTurn())?.slots.find((slot) => slot.suspension)?.suspension;
    return suspension ? structuredClone(suspension) : undefined;
  }

  async interrupted(): Promise<boolean> {
    return (await this.#pendingTurn())?.interrupted === true;
  }

  /** The session's pending turn; with no session started yet, the stored one of the session it would start. */
  async #pendingTurn(): Promise<PendingTurn | undefined> {
    if (this.#session) return this.#session.pending;
    const id = this.#firstSessionId;
    return id === undefined ? undefined : (await this.#load(id))?.pending;
  }

  messages(): Message[] {
    return structuredClone(this.#session?.transcript() ?? []);
  }

  todos(): TodoItem[] {
    return structuredClone(this.#session?.todos ?? []);
  }

  async compact(options: TurnOptions = {}): Promise<void> {
    this.#assertIdle();
    const controller = new AbortController();
    let finished!: () => void;
    this.#running = { controller, done: new Promise<void>((resolve) => (finished = resolve)) };
    try {
      const session = await this.#ensureSession();
      const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
      session.system = await session.scope.buildPrompt(session.prompt);
      await this.#compactor.compactNow(session, this.model, toolSpecs(session.scope.tools), signal);
      await this.#save(session);
    } finally {
      this.#running = undefined;
      finished();
    }
  }

  changeModel(model: string): void {
    this.model.changeModel(model);
  }

  changeEffort(effort: Effort): void {
    this.model.changeEffort(effort);
  }

  #subagentTools(): Promise<AnyTool[]> {
    return localAgentTools(this.#options.subagents ?? [], {
      kernel: this.kernel,
      model: this.model,
      toolOf: ({ name, description, local }, model) => {
        const limit = local.maxIterations !== undefined ? { maxIterations: local.maxIterations } : {};
        const child = new WeftAgent({ ...this.#options, subagents: [], sessionId: undefined, model, name, ...limit });
        return child.asTool({ name, description, instructions: local.instructions, ...(local.tools ? { tools: local.tools } : {}) });
      },
    });
  }

  asTool(options: AgentToolOptions): AnyTool {
    return subagentTool({
      run: async (sessionId, start, { prompt, tools, output, signal, onEvent }) => {
        // One agent per call, so parallel calls never share a session; the store is this agent's (one made
        // for them without it), so a child session that waits for an answer is found again by the call that carries it.
        this.#childStore ??= this.#store ?? memorySessionStore();
        const child = new WeftAgent({ ...this.#options, store: this.#childStore, sessionId });
        try {
          await child.startSession({ ...(prompt !== undefined ? { prompt } : {}), ...(tools ? { tools } : {}) });
          const turn = { signal, ...(output ? { output } : {}) };
          const events = "input" in start ? child.stream(start.input, turn) : child.streamResume(start.answer, turn);
          let response: AgentResponse | undefined;
          for await (const event of events) {
            if (event.type === "response") response = event.response;
            else onEvent(event);
          }
          if (!response) throw new WeftError("ABORTED", "the subagent's turn ended without a response");
          return response;
        } finally {
          await child.close();
        }
      },
    }, options);
  }

  /** A turn without a stream: its events go to the kernel's feedback hook only, none are queued. */
  async #settle(start: TurnStart, options: TurnOptions = {}): Promise<AgentResponse> {
    const response = await this.#begin(start, options).run;
    if (response.reason === "max-iterations") throw new MaxIterationsError(response.metadata.iterations);
    return response;
  }

  async *#turn(start: TurnStart, options: TurnOptions = {}): AsyncGenerator<AgentEvent> {
    const channel = new EventChannel<AgentEvent>();
    const { running, run } = this.#begin(start, options, channel);
    const settled = run.then(
      (response) => {
        channel.push({ type: "response", response });
        channel.end();
      },
      (error: unknown) => channel.fail(error),
    );
    try {
      yield* channel;
    } finally {
      // Leaving early (break, throw) aborts the turn; either way it has settled before we return. A
      // finished turn has nothing to abort (and its error, a stack capture, would be built for nothing).
      if (this.#running === running) running.controller.abort(new WeftError("ABORTED", "the stream was closed before the turn finished"));
      await settled;
    }
  }

  /** Starts a turn; `channel`, for a stream, also gets the turn's events (its tool events included) as they happen. */
  #begin(start: TurnStart, options: TurnOptions, channel?: EventChannel<AgentEvent>): { running: Running; run: Promise<AgentResponse> } {
    this.#assertIdle();
    const controller = new AbortController();
    let finished!: () => void;
    const running: Running = { controller, channel, done: new Promise<void>((resolve) => (finished = resolve)) };
    this.#running = running;
    const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
    const run = (async () => {
      try {
        const session = await this.#ensureSession();
        if ("input" in start) session.scope.turn++;
        const turn = new Turn({
          model: this.model,
          session,
          compactor: this.#compactor,
          settings: this.#settings,
          signal,
          waitFor: this.#waitFor,
          writeAhead: this.#requireWriteAhead(),
          ...(options.output ? { output: options.output } : {}),
          emit: (event) => this.#emit(event),
        }, "answer" in start);
        running.tally = turn.tally;
        try {
          return await turn.run(start);
        } finally {
          await this.#save(session);
        }
      } finally {
        this.#running = undefined;
        finished();
      }
    })();
    return { running, run };
  }

  async #ensureSession(): Promise<Session> {
    if (!this.#session) await this.#start({});
    if (!this.#session) throw new WeftError("SESSION_CLOSED", "the session closed while it was starting");
    return this.#session;
  }

  #requireWriteAhead(): WriteAhead {
    if (!this.#writeAhead) throw new WeftError("SESSION_CLOSED", "the session closed while it was starting");
    return this.#writeAhead;
  }

  /** The stored session, with the steps of a turn that stopped before it saved folded in. */
  async #load(id: string): Promise<SessionState | undefined> {
    const state = await this.#store?.get(id);
    if (state && (state.version !== 1 || !Array.isArray(state.messages))) {
      throw new WeftError("SESSION_INVALID", `stored session "${id}" is not a weft session (version ${String(state.version)}); start it afresh with another sessionId`);
    }
    return state && foldRecords(state);
  }

  async #save(session: Session): Promise<void> {
    const store = this.#store;
    if (!store) return;
    // A store that serialises at once needs no copy made first (a structuredClone of the transcript a turn).
    await store.save(session.id, session.toState(!serialisesOnSave(store)));
  }

  /** Through the session (its subscribers, this turn's stream, then the kernel's); the kernel's alone without one. */
  #emit(event: FeedbackEvent): void {
    if (this.#session) this.#session.scope.emit(event);
    else this.kernel.emit(event);
  }

  #assertIdle(): void {
    if (this.#running) throw new WeftError("AGENT_BUSY", "the agent is already running a turn; wait for it to finish, or abort it, before starting another");
  }
}

/** Leading system messages become the prompt (when none is given); one later in the transcript is refused. */
function splitPrompt(prompt: string | undefined, messages: Message[]): { prompt: string | undefined; messages: Message[] } {
  let start = 0;
  while (messages[start]?.role === "system") start++;
  const rest = messages.slice(start);
  if (rest.some((message) => message.role === "system")) {
    throw new WeftError("SESSION_INVALID", "a system message may only open the transcript; put instructions into the session prompt instead");
  }
  const leading = messages.slice(0, start).map((message) => message.content).join("\n\n");
  return { prompt: prompt ?? (leading || undefined), messages: rest };
}
