import { SERVICE_PROVIDERS, WeftError, errorMessage, isWeftError } from "@weft/sdk";
import type {
  AnyTool,
  Disposer,
  ExecuteOptions,
  FeedbackEvent,
  HookFacades,
  Logger,
  ProvideOptions,
  Provider,
  ProviderRegistrar,
  Scope as ScopeContract,
  ToolCallRequest,
  ToolRegistrar,
  ToolResult,
  ToolSource,
  WeftServices,
  WaitFor,
} from "@weft/sdk";
import type { HookPoint } from "./hook-point.js";
import { facadesFor, type HookSet, type TapOwner } from "./hook-set.js";
import type { ServiceRegistry } from "./service-registry.js";
import type { ToolView } from "./tool-executor.js";

/** What a scope needs from the level it belongs to: the kernel, or a session. */
export interface ScopeHost {
  readonly hooks: HookSet;
  /** Where the scope's tools go (the kernel's registry, or a session's overlay) and what it sees. */
  addTool(tool: AnyTool, source: ToolSource): Disposer;
  readonly toolView: ToolView;
  readonly logger: Logger;
  readonly baseDir: string;
  readonly signal: AbortSignal;
  readonly waitFor?: WaitFor;
  readonly services: ServiceRegistry;
  readonly isReady: boolean;
  addProvider(provider: Provider, owner: string): Disposer;
  /** Marks a contribution of `owner` as running until the returned function is called. */
  beginContribution(owner: string): () => void;
  emit(event: FeedbackEvent, caller: string): void;
  execute(call: ToolCallRequest, options: ExecuteOptions | undefined, caller: string): Promise<ToolResult>;
  /** Called once when the scope is disposed, so its level stops tracking it. */
  forget(scope: Scope): void;
}

/**
 * Everything one plugin (or session) contributed: its taps, tools, providers, services and teardown.
 * `dispose()` takes it all back, last in first out; its taps are removed, not just silenced.
 */
export class Scope implements ScopeContract, TapOwner {
  readonly hooks: HookFacades;
  readonly tools: ToolRegistrar;
  readonly providerRegistrar: ProviderRegistrar;
  #active = true;
  readonly #teardown: (() => unknown)[] = [];
  readonly #taps: (() => void)[] = [];
  readonly #pending: Promise<void>[] = [];

  constructor(
    readonly name: string,
    private readonly host: ScopeHost,
  ) {
    this.tools = {
      add: (tool) => this.track(host.addTool(tool, { kind: "pack", id: name })),
      get: (toolName) => host.toolView.get(toolName),
      list: () => host.toolView.list(),
    };
    this.providerRegistrar = { add: (provider) => this.track(host.addProvider(provider, name)) };
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
  get signal(): AbortSignal {
    return this.host.signal;
  }
  get waitFor(): WaitFor | undefined {
    return this.host.waitFor;
  }

  contribute(point: HookPoint, stage: number, run: () => Promise<void>): void {
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
    else this.own(point.add({ owner: this.name, stage, fn: guarded }));
  }

  own(untap: () => void): void {
    if (this.#active) this.#taps.push(untap);
    else untap();
  }

  /** Waits for contributions made after the kernel was ready. */
  async settle(): Promise<void> {
    if (this.#pending.length > 0) await Promise.all(this.#pending.splice(0));
  }

  onClose(fn: () => unknown): void {
    this.#teardown.push(fn);
  }

  provide<K extends keyof WeftServices>(name: K, service: WeftServices[K], options: ProvideOptions = {}): void {
    this.#teardown.push(this.host.services.provide(name, service, this.name, options.replaces === true));
  }

  need<K extends keyof WeftServices>(name: K): WeftServices[K] {
    return needService(this.host.services, name, this.name);
  }

  has(name: keyof WeftServices): boolean {
    return this.host.services.has(name);
  }

  emit(event: FeedbackEvent): void {
    this.host.emit(event, this.name);
  }

  observed(): boolean {
    return this.host.hooks.feedback.live;
  }

  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult> {
    return this.host.execute(call, options, this.name);
  }

  /**
   * Runs teardown in reverse order; a failing step is logged and the rest still run. A step that
   * returns a promise is waited for; one that does not (a service's disposer) is not made to.
   */
  async dispose(): Promise<void> {
    if (!this.#active) return;
    this.#active = false;
    this.host.forget(this);
    for (const untap of this.#taps.splice(0)) untap();
    if (this.#pending.length > 0) await Promise.allSettled(this.#pending);
    for (let step = this.#teardown.pop(); step; step = this.#teardown.pop()) {
      try {
        const done = step();
        if (isPromiseLike(done)) await done;
      } catch (error) {
        this.host.logger.error(`teardown of ${this.name} failed: ${errorMessage(error)}`);
      }
    }
  }

  /** Runs `dispose` with the scope's teardown unless it ran before; the returned disposer runs it early. */
  track(dispose: Disposer): Disposer {
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

/** A service by name; SERVICE_MISSING names who needs it. */
export function needService<K extends keyof WeftServices>(services: ServiceRegistry, name: K, who: string): WeftServices[K] {
  if (!services.has(name)) {
    const plugin = SERVICE_PROVIDERS[name];
    const hint = plugin ? `enable ${plugin} (plugins: [${shortName(plugin)}])` : "enable the plugin that provides it";
    throw new WeftError("SERVICE_MISSING", `${who} needs the "${name}" service: ${hint}`);
  }
  return services.get(name) as WeftServices[K];
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | undefined)?.then === "function";
}

/** The config's short name of a plugin package: `@weft/plugin-x` and `weft-plugin-x` are `x`. */
function shortName(plugin: string): string {
  return plugin.replace(/^@weft\/plugin-|^weft-plugin-/, "");
}
