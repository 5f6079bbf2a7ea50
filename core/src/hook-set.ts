import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from "tapable";
import { Stage } from "@weft/sdk";
import type {
  ChatRequest,
  CompactionState,
  FeedbackEvent,
  HookFacade,
  HookFacades,
  Logger,
  ModelCallInfo,
  ProviderRegistrar,
  TapOptions,
  ToolCallInfo,
  ToolRegistrar,
  ToolResult,
  ToolVerdict,
} from "@weft/sdk";

/** What `live` reads of a tapable hook (tapable does not export its base class). */
interface TappedHook {
  readonly taps: readonly unknown[];
  readonly interceptors: readonly unknown[];
}

/**
 * The kernel's tapable hooks. Only the kernel calls them; plugins get facades from `facadesFor`.
 * `beforeToolCall` is two hooks around the kernel's interceptor slot (`toolBox.setInterceptor`), a
 * POLICY-stage gate that comes first in its stage: `earlyToolGates` holds the gates of earlier stages,
 * `beforeToolCall` those of POLICY and later.
 */
export class HookSet {
  readonly providers = new AsyncSeriesHook<[]>([]);
  readonly tools = new AsyncSeriesHook<[]>([]);
  readonly prompt = new AsyncSeriesWaterfallHook<[string[]]>(["sections"]);
  readonly beforeModelCall = new AsyncSeriesWaterfallHook<[ChatRequest, ModelCallInfo]>(["request", "info"]);
  readonly earlyToolGates = new AsyncSeriesBailHook<[ToolCallInfo], ToolVerdict | undefined>(["call"]);
  readonly beforeToolCall = new AsyncSeriesBailHook<[ToolCallInfo], ToolVerdict | undefined>(["call"]);
  readonly afterToolCall = new AsyncSeriesWaterfallHook<[ToolResult, ToolCallInfo]>(["result", "call"]);
  readonly compact = new AsyncSeriesWaterfallHook<[CompactionState]>(["state"]);
  readonly feedback = new SyncHook<[FeedbackEvent]>(["event"]);
  /** The owners of each hook's facade taps, one entry a tap. */
  readonly #owners = new Map<TappedHook, TapOwner[]>();

  constructor() {
    Object.freeze(this);
  }

  /**
   * Whether calling `hook` could do anything: some tap belongs to an owner still open (or was made
   * without a facade). Callers skip a hook that answers no, which is what tapable would have done
   * at a higher price (a compiled call, a promise, a closed owner's pass-through per tap).
   */
  live(hook: TappedHook): boolean {
    if (hook.interceptors.length > 0) return true;
    const owners = this.#owners.get(hook);
    if (!owners) return hook.taps.length > 0;
    if (hook.taps.length > owners.length) return true;
    for (const owner of owners) if (owner.active) return true;
    return false;
  }

  /** Records a facade tap's owner; the tap itself is made by the caller. */
  ownedBy(hook: TappedHook, owner: TapOwner): void {
    const owners = this.#owners.get(hook);
    if (owners) owners.push(owner);
    else this.#owners.set(hook, [owner]);
  }
}

/** The scope a facade taps for. Tapable cannot untap, so taps consult `active` on every call. */
export interface TapOwner {
  readonly name: string;
  readonly active: boolean;
  readonly tools: ToolRegistrar;
  readonly providerRegistrar: ProviderRegistrar;
  readonly logger: Logger;
  /** Taps `providers`/`tools`, or runs the contribution at once when the kernel is already ready. */
  contribute(hook: AsyncSeriesHook<[]>, stage: number, run: () => Promise<void>): void;
  onClose(fn: () => unknown): void;
}

type AnyFn = (...args: any[]) => any;

function parseTap(first: TapOptions | AnyFn, second?: AnyFn): { stage: number; fn: AnyFn } {
  return typeof first === "function" ? { stage: 0, fn: first } : { stage: first.stage ?? 0, fn: second! };
}

function facade<A extends unknown[], R>(register: (stage: number, fn: AnyFn) => void): HookFacade<A, R> {
  return {
    tap(first: TapOptions | AnyFn, second?: AnyFn) {
      const { stage, fn } = parseTap(first, second);
      register(stage, fn);
    },
  };
}

export function facadesFor(hooks: HookSet, owner: TapOwner): HookFacades {
  const tap = { name: owner.name };
  // A closed owner's waterfall tap hands its input on unchanged; its bail tap abstains.
  const waterfall = (hook: AsyncSeriesWaterfallHook<any, any>) =>
    facade<any, any>((stage, fn) => {
      hooks.ownedBy(hook, owner);
      hook.tapPromise({ ...tap, stage }, async (...args: unknown[]) => (owner.active ? fn(...args) : args[0]));
    });
  return {
    providers: facade((stage, fn) => owner.contribute(hooks.providers, stage, async () => fn(owner.providerRegistrar))),
    tools: facade((stage, fn) => owner.contribute(hooks.tools, stage, async () => fn(owner.tools))),
    prompt: waterfall(hooks.prompt),
    beforeModelCall: waterfall(hooks.beforeModelCall),
    beforeToolCall: facade((stage, fn) => {
      const hook = stage < Stage.POLICY ? hooks.earlyToolGates : hooks.beforeToolCall;
      hooks.ownedBy(hook, owner);
      hook.tapPromise({ ...tap, stage }, async (call) => (owner.active ? fn(call) : undefined));
    }),
    afterToolCall: waterfall(hooks.afterToolCall),
    compact: waterfall(hooks.compact),
    feedback: facade((stage, fn) => {
      hooks.ownedBy(hooks.feedback, owner);
      hooks.feedback.tap({ ...tap, stage }, (event) => observe(owner, fn, event));
    }),
    close: facade((_stage, fn) => owner.onClose(fn)),
  };
}

// An observer's failure is logged and never reaches the code that emitted the event.
function observe(owner: TapOwner, fn: AnyFn, event: FeedbackEvent): void {
  if (!owner.active) return;
  const report = (error: unknown) =>
    owner.logger.error(`feedback observer of ${owner.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  try {
    const returned = fn(event);
    if (returned instanceof Promise) returned.catch(report);
  } catch (error) {
    report(error);
  }
}
