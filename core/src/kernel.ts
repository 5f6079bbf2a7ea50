import { Value } from "typebox/value";
import { PLUGIN_API_VERSION, WeftError, errorMessage, parseModelRef, stderrLogger } from "@weft/sdk";
import type {
  ChatModel,
  ChatRequest,
  CompactionState,
  Disposer,
  ExecuteOptions,
  FeedbackEvent,
  Kernel,
  Logger,
  ModelSpec,
  Plugin,
  PluginHandle,
  Provider,
  ToolCallRequest,
  ToolResult,
} from "@weft/sdk";
import type { TSchema } from "typebox";
import { HookSet } from "./hook-set.js";
import { importProviderPlugin } from "./provider-autoload.js";
import { PluginOptionsError } from "./plugin-options-error.js";
import { withDefaults } from "./schema-defaults.js";
import { Scope } from "./scope.js";
import { ToolBox } from "./tool-box.js";
import { ToolExecutor } from "./tool-executor.js";

export interface KernelOptions {
  /** Where warnings go; stderr by default. */
  logger?: Logger;
  /** The folder relative paths in plugin options resolve from; the working directory by default. */
  baseDir?: string;
}

interface Applied {
  handle: PluginHandle;
  scope: Scope;
}

class WeftKernel implements Kernel {
  readonly logger: Logger;
  readonly tools: ToolBox;
  readonly #hookSet = new HookSet();
  readonly #executor: ToolExecutor;
  readonly #providers = new Map<string, Provider[]>();
  readonly #services = new Map<string, unknown>();
  readonly #applied: Applied[] = [];
  readonly #scopes = new Set<Scope>();
  readonly #loading: string[] = [];
  readonly #app: Scope;
  readonly #baseDir: string;
  #ready: Promise<void> | undefined;
  #isReady = false;
  #closed = false;

  constructor(options: KernelOptions) {
    this.logger = options.logger ?? stderrLogger;
    this.#baseDir = options.baseDir ?? process.cwd();
    this.tools = new ToolBox();
    this.#executor = new ToolExecutor(this.tools, this.#hookSet, (event) => this.emit(event));
    this.#app = this.scope("app");
  }

  get hooks() {
    return this.#app.hooks;
  }
  get closed(): boolean {
    return this.#closed;
  }

  async use<O extends TSchema>(plugin: Plugin<O>, options?: unknown, from?: string): Promise<PluginHandle> {
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
    const settings = resolveOptions(plugin, options);
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
      toolBox: this.tools,
      logger: this.logger,
      baseDir: this.#baseDir,
      services: this.#services,
      get isReady() {
        return kernel.#isReady;
      },
      addProvider: (provider, owner) => this.#addProvider(provider, owner),
      beginContribution: (owner) => {
        this.#loading.push(owner);
        return () => void this.#loading.splice(this.#loading.indexOf(owner), 1);
      },
      emit: (event) => this.emit(event),
      execute: (call, options) => this.execute(call, options),
      forget: (disposed) => this.#scopes.delete(disposed),
    });
    this.#scopes.add(scope);
    return scope;
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

  async execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult> {
    this.#assertOpen();
    if (!this.#isReady) await this.ready();
    return this.#executor.execute(call, options);
  }

  // These run before every model call and on every event: a hook nobody (still open) taps is skipped.
  async buildPrompt(base = ""): Promise<string> {
    if (!this.#hookSet.live(this.#hookSet.prompt)) return base;
    const sections = await this.#hookSet.prompt.promise(base ? [base] : []);
    return sections.filter((section) => section.length > 0).join("\n\n");
  }

  prepareRequest(request: ChatRequest, model: ChatModel): Promise<ChatRequest> {
    if (!this.#hookSet.live(this.#hookSet.beforeModelCall)) return Promise.resolve(request);
    return this.#hookSet.beforeModelCall.promise(request, { model });
  }

  compact(state: CompactionState): Promise<CompactionState> {
    if (!this.#hookSet.live(this.#hookSet.compact)) return Promise.resolve(state);
    return this.#hookSet.compact.promise(state);
  }

  emit(event: FeedbackEvent): void {
    if (this.#hookSet.live(this.#hookSet.feedback)) this.#hookSet.feedback.call(event);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
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

function checkShape(plugin: Plugin<any>, from?: string): Plugin<any> {
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
function resolveOptions(plugin: Plugin<any>, options: unknown): unknown {
  if (!plugin.options) return options ?? {};
  // Not cloned: code-configured options may hold functions and signals (a skill provider, a waitFor).
  const value = withDefaults(plugin.options, options ?? {});
  const problems = [...Value.Errors(plugin.options, value)].map((error) => ({ path: error.instancePath, message: error.message }));
  if (problems.length > 0) throw new PluginOptionsError(plugin.meta.name, problems);
  return value;
}

export function createKernel(options: KernelOptions = {}): Kernel {
  return new WeftKernel(options);
}
