import { HookFailedError } from "@weft/sdk";
import type { HookContext, HookFacades, HookKind, Logger, ObserverTapOptions, ProviderRegistrar, TapOptions, ToolRegistrar } from "@weft/sdk";
import { HookPoint, type TapRecord } from "./hook-point.js";

/** Each hook's kind and its arguments' names (the context it runs in is always the last). */
const SHAPES = {
  providers: { kind: "series", args: [] },
  tools: { kind: "series", args: [] },
  prompt: { kind: "waterfall", args: ["sections", "context"] },
  beforeModelCall: { kind: "waterfall", args: ["request", "info", "context"] },
  beforeToolCall: { kind: "bail", args: ["call", "context"] },
  afterToolCall: { kind: "waterfall", args: ["result", "call", "context"] },
  compact: { kind: "waterfall", args: ["state", "context"] },
  prepareStep: { kind: "waterfall", args: ["plan", "step", "context"] },
  stopWhen: { kind: "bail", args: ["step", "context"] },
  feedback: { kind: "sync", args: ["event", "context"] },
} as const satisfies Record<string, { kind: HookKind; args: readonly string[] }>;

export type HookName = keyof typeof SHAPES;

/**
 * The hooks of one scope level: the kernel's, or a session's (`child()`), whose points run the
 * kernel's taps and then its own. Only the kernel and sessions call them; plugins get facades.
 *
 * A session makes a point of its own only when something taps that hook in it (`tappable`); until then
 * its hook is the kernel's point, which runs the same taps. Most sessions tap two hooks of the ten.
 */
export class HookSet {
  readonly #points: Partial<Record<HookName, HookPoint>> = {};

  /** `gateFirst`: the interceptor slot, run first in the gate (at the POLICY stage). */
  constructor(
    private readonly parent?: HookSet,
    private readonly gateFirst?: () => TapRecord | undefined,
  ) {
    if (!parent) for (const name of Object.keys(SHAPES) as HookName[]) this.tappable(name);
  }

  get providers(): HookPoint {
    return this.point("providers");
  }
  get tools(): HookPoint {
    return this.point("tools");
  }
  get prompt(): HookPoint {
    return this.point("prompt");
  }
  get beforeModelCall(): HookPoint {
    return this.point("beforeModelCall");
  }
  get beforeToolCall(): HookPoint {
    return this.point("beforeToolCall");
  }
  get afterToolCall(): HookPoint {
    return this.point("afterToolCall");
  }
  get compact(): HookPoint {
    return this.point("compact");
  }
  get prepareStep(): HookPoint {
    return this.point("prepareStep");
  }
  get stopWhen(): HookPoint {
    return this.point("stopWhen");
  }
  get feedback(): HookPoint {
    return this.point("feedback");
  }

  /** The point that runs `name` at this level: its own once something tapped it here, else the parent's, which runs the same taps. */
  point(name: HookName): HookPoint {
    return this.#points[name] ?? this.parent?.point(name) ?? this.tappable(name);
  }

  /** This level's own point of `name`, for a tap: made on the first one, layered over the parent's. */
  tappable(name: HookName): HookPoint {
    const known = this.#points[name];
    if (known) return known;
    const { kind, args } = SHAPES[name];
    const point = new HookPoint(name, kind, args, this.parent?.tappable(name), name === "beforeToolCall" ? this.gateFirst : undefined);
    this.#points[name] = point;
    return point;
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

type Register = (stage: number, fn: TapFn, options: ObserverTapOptions) => void;

/** A hook as a plugin sees it: `tap` hands the tap to `register`, which records it for the plugin's scope. */
class Facade {
  constructor(
    readonly kind: HookKind,
    private readonly register: Register,
  ) {}

  tap(first: TapOptions | TapFn, second?: TapFn): void {
    const { options, fn } = parseTap(first, second);
    this.register(options.stage ?? 0, fn, options);
  }
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
  // The point is looked up when a tap comes: a session has its own point of a hook only once tapped.
  const tapped = (name: HookName) =>
    new Facade(SHAPES[name].kind, (stage, fn) => {
      const point = hooks.tappable(name);
      owner.own(point.add({ owner: owner.name, stage, fn: failingLoudly(point, owner.name, fn) }));
    });
  const facades = {
    providers: new Facade("series", (stage, fn) =>
      owner.contribute(hooks.tappable("providers"), stage, async () => void (await (fn as (registrar: ProviderRegistrar) => unknown)(owner.providerRegistrar))),
    ),
    tools: new Facade("series", (stage, fn) =>
      owner.contribute(hooks.tappable("tools"), stage, async () => void (await (fn as (registrar: ToolRegistrar) => unknown)(owner.tools))),
    ),
    prompt: tapped("prompt"),
    beforeModelCall: tapped("beforeModelCall"),
    beforeToolCall: tapped("beforeToolCall"),
    afterToolCall: tapped("afterToolCall"),
    compact: tapped("compact"),
    prepareStep: tapped("prepareStep"),
    stopWhen: tapped("stopWhen"),
    feedback: new Facade("sync", (stage, fn, { active }) =>
      owner.own(
        hooks.tappable("feedback").add({ owner: owner.name, stage, fn: observing(owner, fn as (...args: unknown[]) => unknown, active), ...(active ? { active } : {}) }),
      ),
    ),
    close: new Facade("series", (_stage, fn) => owner.onClose(fn as () => unknown)),
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
