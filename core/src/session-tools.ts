import type { AnyTool, Disposer, SessionTools, ToolDescriptor, ToolSource, ToolSubset } from "@weft/sdk";
import { ToolBox, byName } from "./tool-box.js";
import type { ToolView } from "./tool-executor.js";

/**
 * A session's view of the tools: the kernel's registry (or the subset the session was given) under
 * the session's own tools, which shadow a kernel tool of the same name, minus what the session hides.
 */
export class SessionToolView implements ToolView {
  readonly #own = new ToolBox();
  readonly #hidden = new Map<string, number>();
  readonly #only: Set<string> | undefined;
  readonly #exclude: Set<string>;
  /** The last merged listing and what it was built from: rebuilt when the kernel's, the own tools' or the hidden names change. */
  #merged: { kernel: readonly ToolDescriptor[]; own: readonly ToolDescriptor[]; hidden: number; tools: readonly ToolDescriptor[] } | undefined;
  /** Counts changes to the hidden names. */
  #hiddenVersion = 0;

  constructor(
    private readonly kernel: ToolView,
    subset: ToolSubset = {},
  ) {
    this.#only = subset.only ? new Set(subset.only) : undefined;
    this.#exclude = new Set(subset.exclude ?? []);
  }

  add(tool: AnyTool, source: ToolSource): Disposer {
    return this.#own.add(tool, source);
  }

  hide(names: string[]): Disposer {
    for (const name of names) this.#hidden.set(name, (this.#hidden.get(name) ?? 0) + 1);
    this.#hiddenVersion++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.#hiddenVersion++;
      for (const name of names) {
        const count = (this.#hidden.get(name) ?? 1) - 1;
        if (count === 0) this.#hidden.delete(name);
        else this.#hidden.set(name, count);
      }
    };
  }

  get(name: string): ToolDescriptor | undefined {
    if (this.#hidden.has(name)) return undefined;
    return this.#own.get(name) ?? (this.#fromKernel(name) ? this.kernel.get(name) : undefined);
  }

  list(): ToolDescriptor[] {
    return [...this.snapshot()];
  }

  snapshot(): readonly ToolDescriptor[] {
    const own = this.#own.snapshot();
    const kernel = this.kernel.snapshot();
    // The common session adds nothing, hides nothing and keeps every kernel tool: the kernel's sorted list as it is.
    if (own.length === 0 && this.#hidden.size === 0 && !this.#only && this.#exclude.size === 0) return kernel;
    const merged = this.#merged;
    if (merged && merged.kernel === kernel && merged.own === own && merged.hidden === this.#hiddenVersion) return merged.tools;
    const shadowed = new Set(own.map((tool) => tool.name));
    const tools = Object.freeze(
      [...own, ...kernel.filter((tool) => !shadowed.has(tool.name) && this.#fromKernel(tool.name))].filter((tool) => !this.#hidden.has(tool.name)).sort(byName),
    );
    this.#merged = { kernel, own, hidden: this.#hiddenVersion, tools };
    return tools;
  }

  #fromKernel(name: string): boolean {
    return (this.#only ? this.#only.has(name) : true) && !this.#exclude.has(name);
  }
}

/** The view behind each session's tools: the agent reads its snapshot (module-private, like `runnableOf`). */
const views = new WeakMap<object, SessionToolView>();

/** The session's tools as its API hands them out: `add` is taken back with the session. */
export function sessionTools(view: SessionToolView, track: (dispose: Disposer) => Disposer, source: ToolSource): SessionTools {
  const tools: SessionTools = {
    add: (tool) => track(view.add(tool, source)),
    hide: (names) => track(view.hide(names)),
    get: (name) => view.get(name),
    list: () => view.list(),
  };
  views.set(tools, view);
  return tools;
}

/** A session's listing as a snapshot (the same array until it changes); a copy for tools of another kind. */
export function toolSnapshot(tools: Pick<SessionTools, "list">): readonly ToolDescriptor[] {
  return views.get(tools)?.snapshot() ?? tools.list();
}
