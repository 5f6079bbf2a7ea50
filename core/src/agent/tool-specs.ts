import type { SessionTools, ToolDescriptor, ToolSpec } from "@weft/sdk";
import { toolSnapshot } from "../session-tools.js";

/** The specs made from each snapshot of a session's tools: a model call with the same tools reuses them. */
const specsOf = new WeakMap<readonly ToolDescriptor[], readonly ToolSpec[]>();

/**
 * The tools as the model is told about them: what the session sees, sorted by name. Built once per
 * listing: the session's snapshot changes identity whenever a tool is added, removed or hidden, so
 * the cache needs no invalidation of its own (a change event would come a microtask late). Frozen,
 * because every model call of the session shares it.
 */
export function toolSpecs(tools: Pick<SessionTools, "list">): readonly ToolSpec[] {
  const listed = toolSnapshot(tools);
  let specs = specsOf.get(listed);
  if (!specs) {
    specs = Object.freeze(listed.map(({ name, description, inputSchema }) => Object.freeze({ name, description, inputSchema })));
    specsOf.set(listed, specs);
  }
  return specs;
}
