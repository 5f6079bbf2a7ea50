import { PLUGIN_API_VERSION, Stage, WeftError, errorMessage, parseModelRef, stderrLogger } from "@weft/sdk";
import type {
  ChatModel,
  AnyPlugin,
  ChatRequest,
  CompactionState,
  Disposer,
  HookContext,
  ExecuteOptions,
  FeedbackEvent,
  Kernel,
  KernelSession,
  KernelSessionOptions,
  Logger,
  ModelSpec,
  Plugin,
  PluginHandle,
  Provider,
  SchemaInput,
  ToolCallRequest,
  ToolResult,
  ToolVerdictFn,
  WaitFor,
} from "@weft/sdk";
import { buildPrompt, compact, prepareRequest } from "./hook-calls.js";
import type { TapRecord } from "./hook-point.js";
import { HookSet, failingLoudly, kernelContext } from "./hook-set.js";
import { importProviderPlugin } from "./provider-autoload.js";
import { PluginOptionsError, optionProblems } from "./plugin-options-error.js";
import { withDefaults } from "./schema-defaults.js";
import { isStandardSchema, resolveStandardOptions } from "./standard-plugin-options.js";
import { unknownOptions } from "./unknown-options.js";
import { Scope } from "./scope.js";
import { ServiceRegistry } from "./service-registry.js";
import { SessionScope, closedResult, type SessionParent } from "./session-scope.js";
import { ToolBox } from "./tool-box.js";
import { ToolExecutor } from "./tool-executor.js";

export interface KernelOptions {
  /** Where warnings go; stderr by default. */
  logger?: Logger;
  /** The folder relative paths in plugin options resolve from; the working directory by default. */
  baseDir?: string;
  /** Aborting it stops what plugins are connecting to or fetching (`api.signal`, which closing aborts too). */
  signal?: AbortSignal;
  /** The host's resolver for `pending` requests, for plugins that ask the user (`api.waitFor`). */
  waitFor?: WaitFor;
}

interface Applied {
  handle: PluginHandle;
  scope: Scope;
}

class WeftKernel implements Kernel {
  readonly logger: Logger;
  readonly tools: ToolBox;
  readonly #hookSet: HookSet;
  readonly #executor: ToolExecutor;
  readonly #providers = new Map<string, Provider[]>();
  readonly #services = new ServiceRegistry();
  readonly #applied: Applied[] = [];
  /** Plugin scopes and sessions, in the order they opened. */
  readonly #scopes = new Set<Scope | SessionScope>();
  /** The `setInterceptor` slot: a gate tap at the POLICY stage, first in it. */
  #interceptor: TapRecord | undefined;
  readonly #loading: string[] = [];
  readonly #app: Scope;
  readonly #baseDir: string;
  readonly #closing = new AbortController();
  readonly #signal: AbortSignal;
  readonly #waitFor: WaitFor | undefined;
  #ready: Promise<void> | undefined;
  readonly #sessionParent: SessionParent;
  #isReady = false;
  #closed = false;

  constructor(options: KernelOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.#baseDir = options.baseDir ?? process.cwd();
    this.#signal = options.signal ? AbortSignal.any([this.#closing.signal, options.signal]) : this.#closing.signal;
    this.#waitFor = options.waitFor;
    this.#hookSet = new HookSet(undefined, () => this.#interceptor);
    this.tools = new ToolBox((fn) => this.#setInterceptor(fn));
    this.#executor = new ToolExecutor({ tools: this.tools, hooks: this.#hookSet, emit: (event, context) => this.#emitIn(event, context) });
    this.#app = this.scope("app");
    this.#sessionParent = this.#parentOfSessions();
  }

  get hooks() {
    return this.#app.hooks;
  }
  get closed(): boolean {
    return this.#closed;
  }

  async use<O extends SchemaInput>(plugin: Plugin<O>, options?: unknown, from?: string): Promise<PluginHandle> {
    this.#assertOpen();
    const { meta } = checkShape(plugin, from);
    if (meta.api !== PLUGIN_API_VERSION) {
      throw new WeftError(
        "PLUGIN_API_MISMATCH",
        `${meta.name}@${meta.version} was built for plugin API ${meta.api}, but this weft speaks plugin API ${PLUGIN_API_VERSION}; install a version of ${meta.name} built for API ${PLUGIN_API_VERSION}`,
      );
    }
    if (this.#applied.some((applied) => applied.handle.name === meta.name)) {
      throw new WeftError("PLUGIN_DUPLICATE", `${meta.name} is enabled twice; list it once`);
    }
    for (const required of plugin.requires ?? []) {
      if (!this.#applied.some((applied) => applied.handle.name === required)) {
        throw new WeftError("PLUGIN_REQUIRES", `${meta.name} requires ${required}: enable ${required} before ${meta.name}`);
      }
    }
    const settings = await resolveOptions(plugin, options);
    const scope = this.scope(meta.name);
    try {
      const disposer = await plugin.setup(scope, settings as never);
      if (typeof disposer === "function") scope.onClose(disposer);
      await scope.settle();
    } catch (error) {
      await scope.dispose();
      if (error instanceof WeftError) throw error;
      throw new WeftError("PLUGIN_SETUP_FAILED", `${meta.name} failed to set up: ${errorMessage(error)}`, { cause: error });
    }
    const handle: PluginHandle = {
      name: meta.name,
      version: meta.version,
      from,
      close: async () => {
        const index = this.#applied.findIndex((applied) => applied.scope === scope);
        if (index >= 0) this.#applied.splice(index, 1);
        await scope.dispose();
      },
    };
    this.#applied.push({ handle, scope });
    return handle;
  }

  ready(): Promise<void> {
    this.#assertOpen();
    this.#ready ??= (async () => {
      await this.#hookSet.providers.promise();
      await this.#hookSet.tools.promise();
      this.#isReady = true;
    })();
    return this.#ready;
  }

  plugins(): PluginHandle[] {
    return this.#applied.map((applied) => applied.handle);
  }

  loading(): string[] {
    return [...new Set(this.#loading)];
  }

  scope(name: string): Scope {
    const kernel = this;
    const scope = new Scope(name, {
      hooks: this.#hookSet,
      addTool: (tool, source) => this.tools.add(tool, source),
      toolView: this.tools,
      logger: this.logger,
      baseDir: this.#baseDir,
      signal: this.#signal,
      waitFor: this.#waitFor,
      services: this.#services,
      get isReady() {
        return kernel.#isReady;
      },
      addProvider: (provider, owner) => this.#addProvider(provider, owner),
      beginContribution: (owner) => this.#beginContribution(owner),
      emit: (event, caller) => this.#emitIn(event, kernelContext(caller)),
      execute: (call, options, caller) => this.#execute(call, options, caller),
      forget: (disposed) => this.#scopes.delete(disposed),
    });
    this.#scopes.add(scope);
    return scope;
  }

  async session(options: KernelSessionOptions = {}): Promise<KernelSession> {
    this.#assertOpen();
    await this.ready();
    const session = new SessionScope(this.#sessionParent, options);
    this.#scopes.add(session);
    return session;
  }

  /** What every session takes from this kernel: one object, shared by them all. */
  #parentOfSessions(): SessionParent {
    const kernel = this;
    return {
      hooks: this.#hookSet,
      tools: this.tools,
      services: this.#services,
      logger: this.logger,
      baseDir: this.#baseDir,
      signal: this.#signal,
      waitFor: this.#waitFor,
      get closed() {
        return kernel.#closed;
      },
      addProvider: (provider, owner) => this.#addProvider(provider, owner),
      beginContribution: (owner) => this.#beginContribution(owner),
      forget: (disposed) => this.#scopes.delete(disposed),
    };
  }

  async createModel(ref: string | ModelSpec): Promise<ChatModel> {
    await this.ready();
    const spec = typeof ref === "string" ? parseModelRef(ref) : ref;
    if (!spec) {
      throw new WeftError("MODEL_INVALID", `invalid model "${String(ref)}": write it as provider/model, e.g. anthropic/claude-sonnet-4-5`);
    }
    let provider = this.#providers.get(spec.provider)?.at(-1);
    const autoload = provider ? {} : await importProviderPlugin(spec.provider, this.#baseDir);
    if (autoload.plugin) {
      await this.use(autoload.plugin, undefined, autoload.from);
      provider = this.#providers.get(spec.provider)?.at(-1);
    }
    if (!provider) {
      const known = this.providers();
      throw new WeftError(
        "PROVIDER_UNKNOWN",
        autoload.missing
          ? `provider "${spec.provider}" needs its plugin, which is not installed. Install it: npm install ${autoload.missing}`
          : `unknown provider "${spec.provider}"; registered providers: ${known.length ? known.join(", ") : "(none)"}. Enable the plugin that provides it (plugins: in weft.config.yaml, or createToolkit({ plugins }))`,
      );
    }
    return provider.createModel({ ...spec });
  }

  providers(): string[] {
    return [...this.#providers.keys()].sort();
  }

  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult> {
    return this.#execute(call, options, "app");
  }

  async #execute(call: ToolCallRequest, options: ExecuteOptions | undefined, caller: string): Promise<ToolResult> {
    if (this.#closed) return closedResult(call.name, "the kernel is closed");
    if (!this.#isReady) {
      try {
        await this.ready();
      } catch (error) {
        return closedResult(call.name, `the kernel could not get ready: ${errorMessage(error)}`);
      }
    }
    return this.#executor.execute(call, options ?? {}, kernelContext(caller));
  }

  buildPrompt(base = ""): Promise<string> {
    return buildPrompt(this.#hookSet, base, kernelContext("app"));
  }

  prepareRequest(request: ChatRequest, model: ChatModel): Promise<ChatRequest> {
    return prepareRequest(this.#hookSet, request, model, kernelContext("app"));
  }

  compact(state: CompactionState): Promise<CompactionState> {
    return compact(this.#hookSet, state, kernelContext("app"));
  }

  emit(event: FeedbackEvent): void {
    this.#emitIn(event, kernelContext("app"));
  }

  #emitIn(event: FeedbackEvent, context: HookContext): void {
    if (this.#hookSet.feedback.live) this.#hookSet.feedback.call(event, context);
  }

  #setInterceptor(fn: ToolVerdictFn | null): void {
    const gate = this.#hookSet.beforeToolCall;
    this.#interceptor = fn ? { owner: "interceptor", stage: Stage.POLICY, fn: failingLoudly(gate, "interceptor", fn) } : undefined;
    gate.changed();
  }

  #beginContribution(owner: string): () => void {
    this.#loading.push(owner);
    return () => void this.#loading.splice(this.#loading.indexOf(owner), 1);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closing.abort(new WeftError("ABORTED", "the kernel is closed"));
    // Plugins and sessions are torn down newest first: a plugin may still need one set up before it.
    for (const scope of [...this.#scopes].reverse()) await scope.dispose();
    this.#applied.length = 0;
  }

  #addProvider(provider: Provider, owner: string): Disposer {
    if (!provider?.id || typeof provider.createModel !== "function") {
      throw new WeftError("PLUGIN_INVALID", `${owner} registered an invalid provider: it needs an id and createModel()`);
    }
    const stack = this.#providers.get(provider.id) ?? [];
    stack.push(provider);
    this.#providers.set(provider.id, stack);
    return () => {
      const index = stack.indexOf(provider);
      if (index >= 0) stack.splice(index, 1);
      if (stack.length === 0) this.#providers.delete(provider.id);
    };
  }

  #assertOpen(): void {
    if (this.#closed) throw new WeftError("KERNEL_CLOSED", "this kernel is closed; create a new one with createKernel()");
  }
}

function checkShape(plugin: AnyPlugin, from?: string): AnyPlugin {
  const meta = plugin?.meta;
  if (!meta || typeof meta.name !== "string" || typeof meta.version !== "string" || typeof meta.api !== "number" || typeof plugin.setup !== "function") {
    const where = from ? ` (${from})` : "";
    throw new WeftError(
      "PLUGIN_INVALID",
      `not a weft plugin${where}: its default export must be definePlugin({ meta: { name, version, api }, setup })`,
    );
  }
  return plugin;
}

/** Fills defaults and validates; the error lists each failing option path for the loader to locate. */
async function resolveOptions(plugin: AnyPlugin, options: unknown): Promise<unknown> {
  if (!plugin.options) return options ?? {};
  if (isStandardSchema(plugin.options)) {
    const outcome = await resolveStandardOptions(plugin.meta.name, plugin.options, options ?? {});
    if ("problems" in outcome) throw new PluginOptionsError(plugin.meta.name, outcome.problems);
    return outcome.value;
  }
  // A typebox schema is a JSON Schema object.
  const schema = plugin.options as unknown as Record<string, unknown>;
  // Not cloned: code-configured options may hold functions and signals (a skill provider, a waitFor).
  const value = withDefaults(schema, options ?? {});
  const problems = [
    ...unknownOptions(schema, value),
    ...(await optionProblems(plugin.options, value)),
  ];
  if (problems.length > 0) throw new PluginOptionsError(plugin.meta.name, problems);
  return value;
}

export function createKernel(options: KernelOptions = {}): Kernel {
  return new WeftKernel(options);
}
