import { WeftError } from "@weft/sdk";
import type { Disposer } from "@weft/sdk";

interface Provided {
  service: unknown;
  owner: string;
}

/**
 * Services by name: the kernel's, or a session's layered over the kernel's (its own first). A name
 * provided twice is refused unless the second says it replaces the first; a replacement that goes away
 * brings the one it replaced back.
 */
export class ServiceRegistry {
  readonly #stacks = new Map<string, Provided[]>();

  constructor(private readonly parent?: ServiceRegistry) {}

  provide(name: string, service: unknown, owner: string, replaces = false): Disposer {
    const stack = this.#stacks.get(name) ?? [];
    const current = stack.at(-1) ?? this.parent?.current(name);
    if (current && !replaces) {
      throw new WeftError(
        "SERVICE_DUPLICATE",
        `${owner} provides the "${name}" service, which ${current.owner} already provides: enable only one of them, or provide it with { replaces: true } to replace it on purpose`,
      );
    }
    const entry: Provided = { service, owner };
    stack.push(entry);
    this.#stacks.set(name, stack);
    return () => {
      const index = stack.indexOf(entry);
      if (index >= 0) stack.splice(index, 1);
      if (stack.length === 0) this.#stacks.delete(name);
    };
  }

  has(name: string): boolean {
    return this.current(name) !== undefined;
  }

  get(name: string): unknown {
    return this.current(name)?.service;
  }

  /** Every name provided here or on the parent, once each. */
  names(): Set<string> {
    const names = this.parent?.names() ?? new Set<string>();
    for (const name of this.#stacks.keys()) names.add(name);
    return names;
  }

  current(name: string): Provided | undefined {
    return this.#stacks.get(name)?.at(-1) ?? this.parent?.current(name);
  }
}
