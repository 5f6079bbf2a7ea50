import type { AsyncSeriesHook } from "tapable";
import { WeftError, errorMessage, isWeftError } from "@weft/sdk";
import type {
  Disposer,
  ExecuteOptions,
  FeedbackEvent,
  HookFacades,
  Logger,
  Provider,
  ProviderRegistrar,
  Scope as ScopeContract,
  ToolCallRequest,
  ToolRegistrar,
  ToolResult,
  WeftServices,
} from "@weft/sdk";
import { facadesFor, type HookSet, type TapOwner } from "./hook-set.js";
import type { ToolBox } from "./tool-box.js";

/** Which plugin publishes each first-party service, for the error that says what to enable. */
const SERVICE_PLUGINS: Record<string, string> = { mcp: "@weft/plugin-mcp" };

/** What a scope needs from its kernel. */
export interface ScopeHost {
  readonly hooks: HookSet;
  readonly toolBox: ToolBox;
  readonly logger: Logger;
  readonly baseDir: string;
  readonly services: Map<string, unknown>;
  readonly isReady: boolean;
  addProvider(provider: Provider, owner: string): Disposer;
  /** Marks a contribution of `owner` as running until the returned function is called. */
  beginContribution(owner: string): () => void;
  emit(event: FeedbackEvent): void;
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
  /** Called once when the scope is disposed, so the kernel stops tracking it. */
  forget(scope: Scope): void;
}

/**
 * Everything one plugin (or session) contributed: its taps, tools, providers, services and teardown.
 * `dispose()` takes it all back, last in first out, and silences its taps.
 */
export class Scope implements ScopeContract, TapOwner {
  readonly hooks: HookFacades;
  readonly tools: ToolRegistrar;
  readonly providerRegistrar: ProviderRegistrar;
  #active = true;
  readonly #teardown: (() => unknown)[] = [];
  readonly #pending: Promise<void>[] = [];

  constructor(
    readonly name: string,
    private readonly host: ScopeHost,
  ) {
    this.tools = {
      add: (tool) => this.#track(host.toolBox.add(tool, { kind: "pack", id: name })),
      get: (toolName) => host.toolBox.get(toolName),
      list: () => host.toolBox.list(),
    };
    this.providerRegistrar = { add: (provider) => this.#track(host.addProvider(provider, name)) };
    this.hooks = facadesFor(host.hooks, this);
  }

  get active(): boolean {
    return this.#active;
  }
  get logger(): Logger {
    return this.host.logger;
  }
  get baseDir(): string {
    return this.host.baseDir;
  }

  contribute(hook: AsyncSeriesHook<[]>, stage: number, run: () => Promise<void>): void {
    const guarded = async () => {
      if (!this.#active) return;
      const finished = this.host.beginContribution(this.name);
      try {
        await run();
      } catch (error) {
        // A plugin's own typed error (a deadline, a bad config) reaches the host with its code intact.
        if (isWeftError(error)) throw error;
        throw new WeftError("PLUGIN_SETUP_FAILED", `${this.name} failed while registering: ${errorMessage(error)}`, { cause: error });
      } finally {
        finished();
      }
    };
    if (this.host.isReady) this.#pending.push(guarded());
    else hook.tapPromise({ name: this.name, stage }, guarded);
  }

  /** Waits for contributions made after the kernel was ready. */
  async settle(): Promise<void> {
    await Promise.all(this.#pending.splice(0));
  }

  onClose(fn: () => unknown): void {
    this.#teardown.push(fn);
  }

  provide<K extends keyof WeftServices>(name: K, service: WeftServices[K]): void {
    this.host.services.set(name, service);
    this.#teardown.push(() => this.host.services.get(name) === service && this.host.services.delete(name));
  }

  need<K extends keyof WeftServices>(name: K): WeftServices[K] {
    if (!this.host.services.has(name)) {
      const plugin = SERVICE_PLUGINS[name];
      const hint = plugin ? `enable ${plugin} (plugins: [${plugin.replace("@weft/plugin-", "")}])` : "enable the plugin that provides it";
      throw new WeftError("SERVICE_MISSING", `${this.name} needs the "${name}" service: ${hint}`);
    }
    return this.host.services.get(name) as WeftServices[K];
  }

  has(name: keyof WeftServices): boolean {
    return this.host.services.has(name);
  }

  emit(event: FeedbackEvent): void {
    this.host.emit(event);
  }

  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult> {
    return this.host.execute(call, options);
  }

  /** Runs teardown in reverse order; a failing step is logged and the rest still run. */
  async dispose(): Promise<void> {
    if (!this.#active) return;
    this.#active = false;
    this.host.forget(this);
    await Promise.allSettled(this.#pending);
    for (const step of this.#teardown.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        this.host.logger.error(`teardown of ${this.name} failed: ${errorMessage(error)}`);
      }
    }
  }

  #track(dispose: Disposer): Disposer {
    let done = false;
    const once = async () => {
      if (done) return;
      done = true;
      await dispose();
    };
    this.#teardown.push(once);
    return once;
  }
}
