import type { FlagSpec } from "./command.js";

/** `--config`, shared by every command that loads a project. */
export const CONFIG_FLAG = { config: { type: "string", value: "<file>", description: "the weft.config.yaml to use (default: found by walking up from here)" } } as const satisfies Record<string, FlagSpec>;

/** `--json`: machine-readable output; errors become `{"code","message"}` on stdout. */
export const JSON_FLAG = { json: { type: "boolean", description: "print JSON instead of a table; errors as {\"code\", \"message\"}" } } as const satisfies Record<string, FlagSpec>;
