import type { HookKind } from "@weft/sdk";

type TapFn = (...args: unknown[]) => unknown;

/** What a hook point calls, with the arguments of one call: `promise` for the async kinds, `call` for `sync`. */
export interface HookRun {
  promise(args: readonly unknown[]): Promise<unknown>;
  call(args: readonly unknown[]): void;
}

/** A tap as the runner orders it: its stage, and the function (already wrapped by the kernel). */
export interface RunnerTap {
  readonly stage: number;
  readonly fn: (...args: never[]) => unknown;
}

/**
 * Runs one hook's taps: in stage order, taps of one stage in the order given, each with the
 * hook's `arity` arguments (tapable's contract, which weft's hooks had: a tap gets the arguments
 * the hook declares). What each kind does with the taps' results:
 * - `series`: awaits each tap in turn; resolves to undefined.
 * - `waterfall`: passes the first argument on: each tap gets what the tap before returned, unless
 *   it returned undefined; resolves to the last value.
 * - `bail`: stops at the first tap that resolves to something other than undefined, and resolves to it.
 * - `sync`: calls each tap in turn (a throw stops the rest).
 * A tap that throws or rejects rejects the call (the kernel's wrapper names the tap); the taps after
 * it do not run. These are a plain loop over the taps: tapable, which ran them before, generated and
 * compiled a function per hook at its first call and weighed ~35 KB at every start.
 */
export function hookRunner(kind: HookKind, arity: number, taps: readonly RunnerTap[]): HookRun {
  // Array.prototype.sort is stable: same-stage taps keep their order.
  const fns = [...taps].sort((a, b) => a.stage - b.stage).map((tap) => tap.fn as TapFn);
  const declared = (given: readonly unknown[]) => (given.length === arity ? given : Array.from({ length: arity }, (_, index) => given[index]));
  const run = RUNS[kind];
  return {
    promise: (given) => run(fns, declared(given)),
    call: (given) => {
      const args = declared(given);
      for (const fn of fns) fn(...args);
    },
  };
}

const RUNS: Record<HookKind, (fns: readonly TapFn[], args: readonly unknown[]) => Promise<unknown>> = {
  async series(fns, args) {
    for (const fn of fns) await fn(...args);
  },
  async waterfall(fns, args) {
    const values = [...args];
    for (const fn of fns) {
      const next = await fn(...values);
      if (next !== undefined) values[0] = next;
    }
    return values[0];
  },
  async bail(fns, args) {
    for (const fn of fns) {
      const result = await fn(...args);
      if (result !== undefined) return result;
    }
    return undefined;
  },
  // A sync hook is called (`call`); its promise form runs the taps the same way.
  async sync(fns, args) {
    for (const fn of fns) fn(...args);
  },
};
