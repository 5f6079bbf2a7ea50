import type { HookKind } from "@weft/sdk";
import { hookRunner, type HookRun } from "./hook-runner.js";

type AnyFn = (...args: never[]) => unknown;

/** One tap, as the kernel keeps it: the records are the truth, and the runner of a hook is built from them. */
export interface TapRecord {
  /** The plugin or scope that tapped, for errors. */
  readonly owner: string;
  readonly stage: number;
  /** Already wrapped: it throws HOOK_FAILED naming the hook and `owner`, or logs (feedback). */
  readonly fn: AnyFn;
  /** An observer that observes only at times (see `ObserverTapOptions`): while false, it does not make the hook live. */
  readonly active?: () => boolean;
}

/**
 * One hook of one scope: the kernel's, or a session's layered over the kernel's. Taps are records that
 * can be removed (a closed plugin or session leaves nothing behind); the runner that runs them
 * (hook-runner.ts) is built from the records when first called after a change, parent's taps first so
 * a stage orders both.
 */
export class HookPoint {
  readonly #own: TapRecord[] = [];
  #version = 0;
  #built: { hook: HookRun; version: number; parentVersion: number } | undefined;

  constructor(
    readonly name: string,
    readonly kind: HookKind,
    /** The arguments' names (a tap gets this many); the context the hook runs in is always the last. */
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
    return this.#hook().promise(args);
  }

  call(...args: unknown[]): void {
    this.#hook().call(args);
  }

  #hook(): HookRun {
    // A session that taps nothing of this hook runs its parent's hook, built once for every session.
    if (this.#own.length === 0 && !this.first && this.parent) return this.parent.#hook();
    const parentVersion = this.parent?.version ?? 0;
    const built = this.#built;
    if (built && built.version === this.#version && built.parentVersion === parentVersion) return built.hook;
    const hook = hookRunner(this.kind, this.args.length, this.records());
    this.#built = { hook, version: this.#version, parentVersion };
    return hook;
  }
}

function isActive(record: TapRecord): boolean {
  return record.active?.() ?? true;
}
