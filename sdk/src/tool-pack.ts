import path from "node:path";
import type { Static } from "typebox";
import { Type } from "./typebox-builders.js";
import { defineConfigKey, type AnyConfigKey, type ConfigKeyContext } from "./config-key.js";
import type { AnyTool } from "./tool.js";

/**
 * Options every first-party pack shares, spread into its options schema:
 *
 *   options: Type.Object({ ...toolPackOptions, root: Type.String({ default: "." }) })
 *
 * `builtins: true` registers the pack's built-in tools (`bash`, `read`, `webfetch`...) instead of its
 * pack tools (`shell_run`, `file_read`, `web_fetch`...); `tools` drops single tools by name
 * (`{ bash: false }`). Names that are not tools of the pack are ignored, so one drop map can be handed
 * to every pack.
 */
export const toolPackOptions = {
  builtins: Type.Boolean({ default: false, description: "Register the pack's built-in tools instead of its pack tools" }),
  tools: Type.Record(Type.String(), Type.Boolean(), { default: {}, description: "Tool name → false drops that tool" }),
};

/** The tools a drop map keeps, in their original order. */
export function keepTools<T extends Pick<AnyTool, "name">>(tools: T[], switches: Record<string, boolean> = {}): T[] {
  return tools.filter((tool) => switches[tool.name] !== false);
}

/**
 * The drop map's entries for one MCP server (`<server>__<tool>: false`) as that server's `tools`
 * filter (`!<tool>`), for packs that start an MCP server whose tools the host names `<server>__<tool>`.
 */
export function droppedServerTools(server: string, switches: Record<string, boolean> = {}): string[] {
  const prefix = `${server}__`;
  return Object.entries(switches)
    .filter(([name, on]) => !on && name.startsWith(prefix))
    .map(([name]) => `!${name.slice(prefix.length)}`);
}

/** `builtins:` as a project or a toolkit writes it: on/off, or single tools dropped. */
export const builtinsSchema = Type.Union([
  Type.Boolean(),
  Type.Object(
    {
      enabled: Type.Optional(Type.Boolean()),
      /** Tool name → false drops it. */
      tools: Type.Optional(Type.Record(Type.String(), Type.Boolean())),
      /** Tool names to drop. */
      disabled: Type.Optional(Type.Array(Type.String())),
    },
    { additionalProperties: false },
  ),
]);

/**
 * The drop map a `builtins:` value means (its `tools`, its `disabled` names and the host's own tools,
 * which the built-ins step aside for), or undefined when the value turns the built-ins off.
 */
export function builtinSwitches(value: Static<typeof builtinsSchema>, context: ConfigKeyContext): Record<string, boolean> | undefined {
  const spec = typeof value === "boolean" ? { enabled: value } : value;
  if (spec.enabled === false) return undefined;
  const off = (names: readonly string[]) => Object.fromEntries(names.map((name) => [name, false]));
  return { ...spec.tools, ...off(spec.disabled ?? []), ...off(context.hostTools) };
}

/** Where the built-ins rank when names clash: after MCP (10) and skills (20), before agents (40). */
export const BUILTINS_RANK = 30;

/** The `builtins:` key of a first-party pack: its built-in tools, confined to the base folder when `rooted`. */
export function builtinsConfigKey(options: { rooted?: boolean } = {}): AnyConfigKey {
  return defineConfigKey({
    schema: builtinsSchema,
    rank: BUILTINS_RANK,
    toOptions: (value, context) => {
      const tools = builtinSwitches(value, context);
      if (!tools) return undefined;
      return { builtins: true, tools, ...(options.rooted ? { root: path.resolve(context.baseDir) } : {}) };
    },
  });
}
