import path from "node:path";
import { DEFAULT_MAX_OUTPUT_BYTES, PLUGIN_API_VERSION, definePlugin, builtinsConfigKey, toolPackOptions, Type } from "@weft/sdk";
import { DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "./command-tool.js";
import { SHELL_PLUGIN_NAME, shellTools } from "./shell-tools.js";

export const shellPlugin = definePlugin({
  meta: { name: SHELL_PLUGIN_NAME, version: "0.1.0", api: PLUGIN_API_VERSION, description: "shell_run (or the built-in bash): commands through a shell" },
  config: { builtins: builtinsConfigKey() },
  options: Type.Object({
    ...toolPackOptions,
    cwd: Type.Optional(Type.String({ description: "Folder commands run in by default (relative to the config file); the working directory when absent" })),
    timeoutMs: Type.Integer({ default: DEFAULT_TIMEOUT_MS, minimum: 1, maximum: MAX_TIMEOUT_MS, description: "timeout_ms when a call gives none" }),
    maxOutputBytes: Type.Integer({ default: DEFAULT_MAX_OUTPUT_BYTES, minimum: 1, description: "Output cap per command" }),
  }),
  setup(api, options) {
    const cwd = options.cwd === undefined ? undefined : path.resolve(api.baseDir, options.cwd);
    for (const tool of shellTools({ ...options, cwd })) api.tools.add(tool);
  },
});
