import { HookFailedError } from "@weft/sdk";
import type { HookContext, HookFacades, HookKind, Logger, ObserverTapOptions, ProviderRegistrar, TapOptions, ToolRegistrar } from "@weft/sdk";
import { HookPoint, type TapRecord } from "./hook-point.js";

/**
 * The hooks of one scope level: the kernel's, or a session's (`child()`), whose points run the
 * kernel's taps and then its own. Only the kernel and sessions call them; plugins get facades.
 */
export class HookSet {
  readonly providers: HookPoint;
  readonly tools: HookPoint;
  readonly prompt: HookPoint;
  readonly beforeModelCall: HookPoint;
  readonly beforeToolCall: HookPoint;
  readonly afterToolCall: HookPoint;
  readonly compact: HookPoint;
  readonly prepareStep: HookPoint;
  readonly stopWhen: HookPoint;
  readonly feedback: HookPoint;

  /** `gateFirst`: the interceptor slot, run first in the gate (at the POLICY stage). */
  constructor(parent?: HookSet, gateFirst?: () => TapRecord | undefined) {
    const point = (name: keyof HookSet & string, kind: HookKind, args: string[], first?: () => TapRecord | undefined) =>
      new HookPoint(name, kind, args, parent?.[name] as HookPoint | undefined, first);
    this.providers = point("providers", "series", []);
    this.tools = point("tools", "series", []);
    this.prompt = point("prompt", "waterfall", ["sections", "context"]);
    this.beforeModelCall = point("beforeModelCall", "waterfall", ["request", "info", "context"]);
    this.beforeToolCall = point("beforeToolCall", "bail", ["call", "context"], gateFirst);
    this.afterToolCall = point("afterToolCall", "waterfall", ["result", "call", "context"]);
    this.compact = point("compact", "waterfall", ["state", "context"]);
    this.prepareStep = point("prepareStep", "waterfall", ["plan", "step", "context"]);
    this.stopWhen = point("stopWhen", "bail", ["step", "context"]);
    this.feedback = point("feedback", "sync", ["event", "context"]);
    Object.freeze(this);
  }

  child(): HookSet {
    return new HookSet(this);
  }
}

/** The scope a facade taps for; what it taps is removed when the scope is disposed. */
export interface TapOwner {
  readonly name: string;
  readonly tools: ToolRegistrar;
  readonly providerRegistrar: ProviderRegistrar;
  readonly logger: Logger;
  /** Taps `providers`/`tools`, or runs the contribution at once when the kernel is already ready. */
  contribute(point: HookPoint, stage: number, run: () => Promise<void>): void;
  /** Keeps a tap until the owner is disposed. */
  own(untap: () => void): void;
  onClose(fn: () => unknown): void;
}

type TapFn = (...args: never[]) => unknown;

function parseTap(first: TapOptions | TapFn, second?: TapFn): { options: ObserverTapOptions; fn: TapFn } {
  if (typeof first === "function") return { options: {}, fn: first };
  if (!second) throw new TypeError("tap(options, fn) needs a function");
  return { options: first, fn: second };
}

type Facade = { kind: HookKind; tap(first: TapOptions | TapFn, second?: TapFn): void };

function facade(kind: HookKind, register: (stage: number, fn: TapFn, options: ObserverTapOptions) => void): Facade {
  return {
    kind,
    tap(first, second) {
      const { options, fn } = parseTap(first, second);
      register(options.stage ?? 0, fn, options);
    },
  };
}

/** A tap that throws becomes a HookFailedError naming the hook and the plugin. */
export function failingLoudly(point: HookPoint, owner: string, fn: TapFn): TapRecord["fn"] {
  const run = fn as (...args: unknown[]) => unknown;
  return async (...args: unknown[]) => {
    try {
      return await run(...args);
    } catch (error) {
      throw new HookFailedError(point.name, owner, error);
    }
  };
}

export function facadesFor(hooks: HookSet, owner: TapOwner): HookFacades {
  const tapped = (point: HookPoint) =>
    facade(point.kind, (stage, fn) => owner.own(point.add({ owner: owner.name, stage, fn: failingLoudly(point, owner.name, fn) })));
  const facades = {
    providers: facade("series", (stage, fn) =>
      owner.contribute(hooks.providers, stage, async () => void (await (fn as (registrar: ProviderRegistrar) => unknown)(owner.providerRegistrar))),
    ),
    tools: facade("series", (stage, fn) =>
      owner.contribute(hooks.tools, stage, async () => void (await (fn as (registrar: ToolRegistrar) => unknown)(owner.tools))),
    ),
    prompt: tapped(hooks.prompt),
    beforeModelCall: tapped(hooks.beforeModelCall),
    beforeToolCall: tapped(hooks.beforeToolCall),
    afterToolCall: tapped(hooks.afterToolCall),
    compact: tapped(hooks.compact),
    prepareStep: tapped(hooks.prepareStep),
    stopWhen: tapped(hooks.stopWhen),
    feedback: facade("sync", (stage, fn, { active }) =>
      owner.own(hooks.feedback.add({ owner: owner.name, stage, fn: observing(owner, fn as (...args: unknown[]) => unknown, active), ...(active ? { active } : {}) })),
    ),
    close: facade("series", (_stage, fn) => owner.onClose(fn as () => unknown)),
  };
  // The facades' tap signatures are the sdk's typed overloads over these untyped registrations.
  return facades as unknown as HookFacades;
}

// An observer's failure is logged and never reaches the code that emitted the event; one that is not
// active now (see ObserverTapOptions) is not told.
function observing(owner: TapOwner, fn: (...args: unknown[]) => unknown, active?: () => boolean): TapRecord["fn"] {
  const report = (error: unknown) =>
    owner.logger.error(`feedback observer of ${owner.name} failed: ${error instanceof Error ? error.message : String(error)}`);
  return (...args: unknown[]) => {
    if (active && !active()) return;
    try {
      const returned = fn(...args);
      if (returned instanceof Promise) returned.catch(report);
    } catch (error) {
      report(error);
    }
  };
}

/** The context of a call made on the kernel itself, outside any session. */
export function kernelContext(caller: string): HookContext {
  return { turn: 0, caller };
}
