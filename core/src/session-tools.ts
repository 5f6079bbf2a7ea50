import type { AnyTool, Disposer, SessionTools, ToolDescriptor, ToolSource, ToolSubset } from "@weft/sdk";
import { ToolBox } from "./tool-box.js";
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
    let done = false;
    return () => {
      if (done) return;
      done = true;
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
    const own = this.#own.list();
    const kernel = this.kernel.list();
    // The common session adds nothing, hides nothing and keeps every kernel tool: the kernel's sorted list as it is.
    if (own.length === 0 && this.#hidden.size === 0 && !this.#only && this.#exclude.size === 0) return kernel;
    const shadowed = new Set(own.map((tool) => tool.name));
    return [...own, ...kernel.filter((tool) => !shadowed.has(tool.name) && this.#fromKernel(tool.name))]
      .filter((tool) => !this.#hidden.has(tool.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  #fromKernel(name: string): boolean {
    return (this.#only ? this.#only.has(name) : true) && !this.#exclude.has(name);
  }
}

/** The session's tools as its API hands them out: `add` is taken back with the session. */
export function sessionTools(view: SessionToolView, track: (dispose: Disposer) => Disposer, source: ToolSource): SessionTools {
  return {
    add: (tool) => track(view.add(tool, source)),
    hide: (names) => track(view.hide(names)),
    get: (name) => view.get(name),
    list: () => view.list(),
  };
}
