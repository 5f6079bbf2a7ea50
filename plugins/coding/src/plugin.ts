import path from "node:path";
import { PLUGIN_API_VERSION, WeftError, definePlugin, droppedServerTools, findExecutable, builtinsConfigKey, toolPackOptions, type McpServerConfig, Type } from "@weft/sdk";
import { CODING_PLUGIN_NAME, codingBuiltinTools } from "./coding-tools.js";
import { SERENA_FROM, SERENA_SERVER_NAME, serenaMcpConfig } from "./serena.js";

export const codingPlugin = definePlugin({
  meta: { name: CODING_PLUGIN_NAME, version: "0.1.0", api: PLUGIN_API_VERSION, description: "Serena's code tools over MCP, or the built-in apply_patch" },
  config: { builtins: builtinsConfigKey({ rooted: true }) },
  options: Type.Object({
    ...toolPackOptions,
    root: Type.Optional(Type.String({ description: "Folder apply_patch paths are relative to (relative to the config file); the working directory when absent" })),
    from: Type.String({ default: SERENA_FROM, description: "Where uvx gets Serena (pin a tag: git+https://github.com/oraios/serena@<tag>)" }),
    server: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "McpServerConfig fields merged over serenaMcpConfig()" })),
  }),
  async setup(api, options) {
    if (options.builtins) {
      const root = options.root === undefined ? process.cwd() : path.resolve(api.baseDir, options.root);
      for (const tool of await codingBuiltinTools({ root, tools: options.tools })) api.tools.add(tool);
      return;
    }
    const config: McpServerConfig = { ...serenaMcpConfig(options.from), ...(options.server as Partial<McpServerConfig> | undefined) };
    const dropped = droppedServerTools(SERENA_SERVER_NAME, options.tools);
    if (dropped.length > 0) config.tools = [...(config.tools ?? []), ...dropped];
    const command = config.command ?? "uvx";
    if (!findExecutable(command)) {
      throw new WeftError(
        "PLUGIN_SETUP_FAILED",
        `${CODING_PLUGIN_NAME} starts Serena with ${command}, which is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), ` +
          "or enable the pack with builtins: true for apply_patch alone",
      );
    }
    // At tools time every plugin has set up, so the MCP plugin may come before or after this one in the config.
    api.hooks.tools.tap(async () => {
      const server = await api.need("mcp").addServer(SERENA_SERVER_NAME, config);
      api.hooks.close.tap(() => server.close());
    });
  },
});
