import AsyncSeriesBailHook from "tapable/lib/AsyncSeriesBailHook.js";
import AsyncSeriesHook from "tapable/lib/AsyncSeriesHook.js";
import AsyncSeriesWaterfallHook from "tapable/lib/AsyncSeriesWaterfallHook.js";
import SyncHook from "tapable/lib/SyncHook.js";
import type { HookKind } from "@weft/sdk";

type AnyFn = (...args: never[]) => unknown;

/** One tap, as the kernel keeps it: tapable cannot untap, so the records are the truth and hooks are built from them. */
export interface TapRecord {
  /** The plugin or scope that tapped, for errors and tapable's bookkeeping. */
  readonly owner: string;
  readonly stage: number;
  /** Already wrapped: it throws HOOK_FAILED naming the hook and `owner`, or logs (feedback). */
  readonly fn: AnyFn;
  /** An observer that observes only at times (see `ObserverTapOptions`): while false, it does not make the hook live. */
  readonly active?: () => boolean;
}

interface Callable {
  promise(...args: unknown[]): Promise<unknown>;
  call(...args: unknown[]): unknown;
}

/**
 * One hook of one scope: the kernel's, or a session's layered over the kernel's. Taps are records that
 * can be removed (a closed plugin or session leaves nothing behind); the tapable hook that runs them is
 * built from the records when first called after a change, parent's taps first so a stage orders both.
 */
export class HookPoint {
  readonly #own: TapRecord[] = [];
  #version = 0;
  #built: { hook: Callable; version: number; parentVersion: number } | undefined;

  constructor(
    readonly name: string,
    readonly kind: HookKind,
    /** tapable's argument names; the context the hook runs in is always the last. */
    readonly args: readonly string[],
    readonly parent?: HookPoint,
    /** Records that run before every other of their stage (the interceptor slot of `setInterceptor`). */
    private readonly first?: () => TapRecord | undefined,
  ) {}

  /** Changes whenever this point's or an ancestor's taps change. */
  get version(): number {
    return this.#version + (this.parent?.version ?? 0);
  }

  /** Whether calling could do anything; callers skip a hook nobody taps. */
  get live(): boolean {
    return this.#own.some(isActive) || this.first?.() !== undefined || (this.parent?.live ?? false);
  }

  add(record: TapRecord): () => void {
    this.#own.push(record);
    this.changed();
    return () => {
      const index = this.#own.indexOf(record);
      if (index < 0) return;
      this.#own.splice(index, 1);
      this.changed();
    };
  }

  /** Marks the built hook stale (a record was added or removed, or the `first` slot changed). */
  changed(): void {
    this.#version++;
  }

  records(): TapRecord[] {
    const first = this.first?.();
    return [...(first ? [first] : []), ...(this.parent?.records() ?? []), ...this.#own];
  }

  promise(...args: unknown[]): Promise<unknown> {
    return this.#hook().promise(...args);
  }

  call(...args: unknown[]): void {
    this.#hook().call(...args);
  }

  #hook(): Callable {
    // A session that taps nothing of this hook runs its parent's hook, built once for every session.
    if (this.#own.length === 0 && !this.first && this.parent) return this.parent.#hook();
    const parentVersion = this.parent?.version ?? 0;
    const built = this.#built;
    if (built && built.version === this.#version && built.parentVersion === parentVersion) return built.hook;
    const hook = build(this.kind, this.args, this.records());
    this.#built = { hook, version: this.#version, parentVersion };
    return hook;
  }
}

function isActive(record: TapRecord): boolean {
  return record.active?.() ?? true;
}

function build(kind: HookKind, args: readonly string[], records: TapRecord[]): Callable {
  // tapable types its argument names from the tuple; these hooks are typed at the facades instead.
  const names = [...args] as never;
  if (kind === "sync") {
    const hook = new SyncHook<unknown[]>(names);
    for (const record of records) hook.tap({ name: record.owner, stage: record.stage }, record.fn as (...a: unknown[]) => void);
    return hook as unknown as Callable;
  }
  const hook =
    kind === "waterfall"
      ? new AsyncSeriesWaterfallHook<unknown[]>(names)
      : kind === "bail"
        ? new AsyncSeriesBailHook<unknown[], unknown>(names)
        : new AsyncSeriesHook<unknown[]>(names);
  for (const record of records) {
    (hook as AsyncSeriesHook<unknown[]>).tapPromise({ name: record.owner, stage: record.stage }, record.fn as (...a: unknown[]) => Promise<void>);
  }
  return hook as unknown as Callable;
}
