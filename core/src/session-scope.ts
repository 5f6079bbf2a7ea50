import type {
  ChatModel,
  ChatRequest,
  CompactionState,
  ExecuteOptions,
  FeedbackEvent,
  HookContext,
  HookFacades,
  KernelSession,
  KernelSessionOptions,
  Logger,
  ProvideOptions,
  Provider,
  SessionTools,
  StepInfo,
  StepPlan,
  ToolCallRequest,
  ToolResult,
  ToolSessionContext,
  WaitFor,
  WeftServices,
} from "@weft/sdk";
import type { HookSet } from "./hook-set.js";
import { Scope, needService } from "./scope.js";
import { ServiceRegistry } from "./service-registry.js";
import { SessionStateKeeper } from "./session-state-keeper.js";
import { SessionToolView, sessionTools } from "./session-tools.js";
import { ToolExecutor, type ToolView } from "./tool-executor.js";
import { buildPrompt, compact, prepareRequest, prepareStep, stopWhen } from "./hook-calls.js";

/** What a session takes from its kernel. */
export interface SessionParent {
  readonly hooks: HookSet;
  readonly tools: ToolView;
  readonly services: ServiceRegistry;
  readonly logger: Logger;
  readonly baseDir: string;
  readonly signal: AbortSignal;
  readonly waitFor?: WaitFor;
  addProvider(provider: Provider, owner: string): ReturnType<Scope["track"]>;
  beginContribution(owner: string): () => void;
  readonly closed: boolean;
  forget(session: SessionScope): void;
}

/**
 * A child scope of the kernel for one conversation (see `KernelSession` in the sdk). Its hooks, tools
 * and services are layers over the kernel's that nothing outside the session sees; disposing it drops
 * the layers, so nothing of a closed session is left on the kernel.
 */
export class SessionScope implements KernelSession {
  readonly id: string;
  readonly agent?: string;
  turn = 0;
  readonly tools: SessionTools;
  readonly #hooks: HookSet;
  readonly #scope: Scope;
  readonly #services: ServiceRegistry;
  readonly #executor: ToolExecutor;
  readonly #parent: SessionParent;
  readonly #state: SessionStateKeeper;

  constructor(parent: SessionParent, options: KernelSessionOptions = {}) {
    this.id = options.id ?? crypto.randomUUID();
    if (options.agent !== undefined) this.agent = options.agent;
    this.#parent = parent;
    this.#hooks = parent.hooks.child();
    this.#services = new ServiceRegistry(parent.services);
    const view = new SessionToolView(parent.tools, options.tools);
    const session: ToolSessionContext = {
      id: this.id,
      ...(this.agent !== undefined ? { agent: this.agent } : {}),
      need: (name) => needService(this.#services, name, `session ${this.id}`),
      has: (name) => this.#services.has(name),
    };
    this.#executor = new ToolExecutor({ tools: view, hooks: this.#hooks, emit: (event, context) => this.#emit(event, context), session });
    this.#scope = new Scope(`session:${this.id}`, {
      hooks: this.#hooks,
      addTool: (tool, source) => view.add(tool, source),
      toolView: view,
      logger: parent.logger,
      baseDir: parent.baseDir,
      signal: parent.signal,
      waitFor: parent.waitFor,
      services: this.#services,
      isReady: true,
      addProvider: (provider, owner) => parent.addProvider(provider, owner),
      beginContribution: (owner) => parent.beginContribution(owner),
      emit: (event, caller) => this.#emitAs(event, caller),
      execute: (call, callOptions, caller) => this.#execute(call, callOptions, caller),
      forget: () => parent.forget(this),
    });
    this.#state = new SessionStateKeeper(this.#services, { id: this.id, ...(this.agent !== undefined ? { agent: this.agent } : {}) }, parent.logger);
    this.tools = sessionTools(view, (dispose) => this.#scope.track(dispose), { kind: "pack", id: this.#scope.name });
  }

  get name(): string {
    return this.#scope.name;
  }
  get hooks(): HookFacades {
    return this.#scope.hooks;
  }
  get logger(): Logger {
    return this.#parent.logger;
  }
  get baseDir(): string {
    return this.#parent.baseDir;
  }
  get signal(): AbortSignal {
    return this.#parent.signal;
  }
  get waitFor(): WaitFor | undefined {
    return this.#parent.waitFor;
  }
  get closed(): boolean {
    return !this.#scope.active;
  }

  /** The context this session's hooks run in, for a call made by `caller`. */
  context(caller = this.#scope.name): HookContext {
    // Made for every tool call: two plain literals, where spreading the optional agent in took V8's slow path.
    const { id: sessionId, agent, turn } = this;
    return agent !== undefined ? { sessionId, agent, turn, caller } : { sessionId, turn, caller };
  }

  provide<K extends keyof WeftServices>(name: K, service: WeftServices[K], options?: ProvideOptions): void {
    this.#scope.provide(name, service, options);
  }
  need<K extends keyof WeftServices>(name: K): WeftServices[K] {
    return this.#scope.need(name);
  }
  has(name: keyof WeftServices): boolean {
    return this.#scope.has(name);
  }

  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult> {
    return this.#execute(call, options, this.#scope.name);
  }

  emit(event: FeedbackEvent): void {
    this.#emitAs(event, this.#scope.name);
  }

  observed(): boolean {
    return this.#hooks.feedback.live;
  }

  buildPrompt(base = ""): Promise<string> {
    return buildPrompt(this.#hooks, base, this.context());
  }

  prepareRequest(request: ChatRequest, model: ChatModel): Promise<ChatRequest> {
    return prepareRequest(this.#hooks, request, model, this.context());
  }

  compact(state: CompactionState): Promise<CompactionState> {
    return compact(this.#hooks, state, this.context());
  }

  prepareStep(plan: StepPlan, step: StepInfo): Promise<StepPlan> {
    return prepareStep(this.#hooks, plan, step, this.context());
  }

  stopWhen(step: StepInfo): Promise<string | undefined> {
    return stopWhen(this.#hooks, step, this.context());
  }

  settle(): Promise<void> {
    return this.#scope.settle();
  }

  saveState(): Record<string, unknown> {
    return this.#state.save();
  }

  restoreState(services: Record<string, unknown>): void {
    this.#state.restore(services);
  }

  dispose(): Promise<void> {
    if (!this.closed) this.#state.forget();
    return this.#scope.dispose();
  }

  #execute(call: ToolCallRequest, options: ExecuteOptions | undefined, caller: string): Promise<ToolResult> {
    if (this.#parent.closed) return Promise.resolve(closedResult(call.name, "the kernel is closed"));
    if (this.closed) return Promise.resolve(closedResult(call.name, `session ${this.id} is closed`));
    return this.#executor.execute(call, options ?? {}, this.context(caller));
  }

  #emit(event: FeedbackEvent, context: HookContext): void {
    if (this.#hooks.feedback.live) this.#hooks.feedback.call(event, context);
  }

  /** An event of `caller`'s: its context is built only when someone observes it. */
  #emitAs(event: FeedbackEvent, caller: string): void {
    if (this.#hooks.feedback.live) this.#hooks.feedback.call(event, this.context(caller));
  }
}

/** What `execute` answers on a closed kernel or session: it never rejects. */
export function closedResult(name: string, what: string): ToolResult {
  return { output: `${name} could not run: ${what}`, isError: true, metadata: { closed: true } };
}
