import { WeftError, validToolName } from "@weft/sdk";
import type { Disposer, RegisteredTool, Tool, ToolSource, ToolBox as ToolBoxContract, ToolVerdictFn } from "@weft/sdk";

interface Entry {
  tool: RegisteredTool;
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
  #sorted: RegisteredTool[] | undefined;
  #interceptor: ToolVerdictFn | null = null;
  #added = 0;
  readonly #disabled = new Map<string, number>();

  add(tool: Tool<any>, source: ToolSource): Disposer {
    if (!validToolName(tool.name)) {
      throw new WeftError(
        "TOOL_NAME_INVALID",
        `invalid tool name "${tool.name}": use 1-64 letters, digits, "_" or "-" (sanitizeToolName makes one)`,
      );
    }
    const entry: Entry = { tool: { ...tool, source: tool.source ?? source } as RegisteredTool, order: this.#added++ };
    const stack = this.#stacks.get(tool.name) ?? [];
    stack.push(entry);
    this.#stacks.set(tool.name, stack);
    this.#sorted = undefined;
    return () => this.#remove(tool.name, entry);
  }

  get(name: string): RegisteredTool | undefined {
    if (this.#disabled.has(name)) return undefined;
    const stack = this.#stacks.get(name);
    return stack?.[stack.length - 1]?.tool;
  }

  list(): RegisteredTool[] {
    this.#sorted ??= [...this.#stacks.values()]
      .map((stack) => stack[stack.length - 1].tool)
      .filter((tool) => !this.#disabled.has(tool.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return [...this.#sorted];
  }

  /** Every registration, shadowed ones included, in the order they were added. */
  registrations(): RegisteredTool[] {
    return [...this.#stacks.values()].flat().sort((a, b) => a.order - b.order).map((entry) => entry.tool);
  }

  /** Removes one registration (a duplicate the toolkit drops); the plugin's own disposer then does nothing. */
  drop(tool: RegisteredTool): void {
    const entry = this.#stacks.get(tool.name)?.find((candidate) => candidate.tool === tool);
    if (entry) this.#remove(tool.name, entry);
  }

  /** Hides tools by name, whatever registered them, until the disposer runs (`disableTools`). */
  disable(names: string[]): Disposer {
    for (const name of names) this.#disabled.set(name, (this.#disabled.get(name) ?? 0) + 1);
    this.#sorted = undefined;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const name of names) {
        const count = this.#disabled.get(name)! - 1;
        if (count === 0) this.#disabled.delete(name);
        else this.#disabled.set(name, count);
      }
      this.#sorted = undefined;
    };
  }

  /** The execute path asks this at its place in the gate (first of the POLICY stage); `setInterceptor` swaps it. */
  get interceptor(): ToolVerdictFn | null {
    return this.#interceptor;
  }

  setInterceptor(fn: ToolVerdictFn | null): void {
    this.#interceptor = fn;
  }

  #remove(name: string, entry: Entry): void {
    const stack = this.#stacks.get(name);
    const index = stack?.indexOf(entry) ?? -1;
    if (!stack || index < 0) return;
    stack.splice(index, 1);
    if (stack.length === 0) this.#stacks.delete(name);
    this.#sorted = undefined;
  }
}
