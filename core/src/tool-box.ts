import { WeftError, validToolName } from "@weft/sdk";
import type { AnyTool, Disposer, ToolBox as ToolBoxContract, ToolDescriptor, ToolSource, ToolVerdictFn } from "@weft/sdk";

/**
 * The runnable tool behind each descriptor. Module-private: no public handle reaches a tool's
 * `execute`, so the execute path (and its gate) is the only way to run one.
 */
const runnable = new WeakMap<ToolDescriptor, AnyTool>();

/** The scope (plugin) that registered each descriptor: the toolkit ranks duplicates by it. */
const owners = new WeakMap<ToolDescriptor, string>();

/** For the execute path only. */
export function runnableOf(descriptor: ToolDescriptor): AnyTool | undefined {
  return runnable.get(descriptor);
}

/** The plugin (or scope) that registered a descriptor of this registry. */
export function ownerOf(descriptor: ToolDescriptor): string | undefined {
  return owners.get(descriptor);
}

function describe(tool: AnyTool, source: ToolSource): ToolDescriptor {
  const { execute: _execute, ...rest } = tool;
  const descriptor: ToolDescriptor = Object.freeze({ ...rest, source: tool.source ?? source });
  runnable.set(descriptor, tool);
  return descriptor;
}

interface Entry {
  tool: ToolDescriptor;
  /** Registration order across all names. */
  order: number;
}

/**
 * The tool registry. Each name holds a stack of registrations: a later `add` shadows an earlier one
 * until it is removed (how skills reserve their tool names for a while). Listing is sorted by name
 * and cached until the next change, so prompts stay byte-identical and listing stays cheap. Every
 * operation is synchronous, so concurrent add/remove/list/execute interleave only between whole
 * operations; an execute holds the tool it looked up even if that tool is removed meanwhile.
 */
export class ToolBox implements ToolBoxContract {
  readonly #stacks = new Map<string, Entry[]>();
  #sorted: readonly ToolDescriptor[] | undefined;
  #added = 0;
  readonly #disabled = new Map<string, number>();
  readonly #listeners = new Set<() => void>();
  #announcing = false;

  /** `setInterceptor` taps the gate through this; the kernel wires it. */
  constructor(private readonly intercept: (fn: ToolVerdictFn | null) => void = () => {}) {}

  /** `source` is the fallback when the tool names none; its id is the registering scope's name. */
  add(tool: AnyTool, source: ToolSource): Disposer {
    if (!validToolName(tool.name)) {
      throw new WeftError(
        "TOOL_NAME_INVALID",
        `invalid tool name "${tool.name}": use 1-64 letters, digits, "_" or "-" (sanitizeToolName makes one)`,
      );
    }
    const entry: Entry = { tool: describe(tool, source), order: this.#added++ };
    owners.set(entry.tool, source.id);
    const stack = this.#stacks.get(tool.name) ?? [];
    stack.push(entry);
    this.#stacks.set(tool.name, stack);
    this.#changed();
    return () => this.#remove(tool.name, entry);
  }

  get(name: string): ToolDescriptor | undefined {
    if (this.#disabled.has(name)) return undefined;
    const stack = this.#stacks.get(name);
    return stack?.[stack.length - 1]?.tool;
  }

  list(): ToolDescriptor[] {
    return [...this.snapshot()];
  }

  /** The listed tools as one frozen array, the same one until the next change: what is derived from it can be cached by identity. */
  snapshot(): readonly ToolDescriptor[] {
    this.#sorted ??= Object.freeze(
      [...this.#stacks.values()]
        .flatMap((stack) => stack.at(-1)?.tool ?? [])
        .filter((tool) => !this.#disabled.has(tool.name))
        .sort(byName),
    );
    return this.#sorted;
  }

  /** Every registration, shadowed ones included, in the order they were added. */
  registrations(): ToolDescriptor[] {
    return [...this.#stacks.values()].flat().sort((a, b) => a.order - b.order).map((entry) => entry.tool);
  }

  /** Removes one registration (a duplicate the toolkit drops); the plugin's own disposer then does nothing. */
  drop(tool: ToolDescriptor): void {
    const entry = this.#stacks.get(tool.name)?.find((candidate) => candidate.tool === tool);
    if (entry) this.#remove(tool.name, entry);
  }

  /** Hides tools by name, whatever registered them, until the disposer runs (`disableTools`). */
  disable(names: string[]): Disposer {
    for (const name of names) this.#disabled.set(name, (this.#disabled.get(name) ?? 0) + 1);
    this.#changed();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const name of names) {
        const count = (this.#disabled.get(name) ?? 1) - 1;
        if (count === 0) this.#disabled.delete(name);
        else this.#disabled.set(name, count);
      }
      this.#changed();
    };
  }

  /** Taps the gate at the POLICY stage (first in it) with one function, replacing the last one; `null` clears it. */
  setInterceptor(fn: ToolVerdictFn | null): void {
    this.intercept(fn);
  }

  /** Whether a name is registered (shadowed or hidden ones included). */
  has(name: string): boolean {
    return this.#stacks.has(name);
  }

  /**
   * Calls `listener` after the listed tools may have changed (a tool added, removed, hidden or shown).
   * Changes made in one synchronous run (an MCP server's tools re-added at reconnect) are announced once.
   */
  onChange(listener: () => void): Disposer {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  #changed(): void {
    this.#sorted = undefined;
    if (this.#announcing || this.#listeners.size === 0) return;
    this.#announcing = true;
    queueMicrotask(() => {
      this.#announcing = false;
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch {
          // A listener's failure is its own: registration has already happened and stays valid.
        }
      }
    });
  }

  #remove(name: string, entry: Entry): void {
    const stack = this.#stacks.get(name);
    const index = stack?.indexOf(entry) ?? -1;
    if (!stack || index < 0) return;
    stack.splice(index, 1);
    if (stack.length === 0) this.#stacks.delete(name);
    this.#changed();
  }
}

/** Tools sorted by name, so the tool section of a prompt is byte-identical across requests. */
export function byName(a: ToolDescriptor, b: ToolDescriptor): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
