import path from "node:path";
import { PLUGIN_API_VERSION, definePlugin, builtinsConfigKey, toolPackOptions, Type } from "@weft/sdk";
import { FILES_PLUGIN_NAME, fileTools } from "./file-tools.js";

export const filesPlugin = definePlugin({
  meta: { name: FILES_PLUGIN_NAME, version: "0.1.0", api: PLUGIN_API_VERSION, description: "file tools confined to one root folder" },
  config: { builtins: builtinsConfigKey({ rooted: true }) },
  options: Type.Object({
    ...toolPackOptions,
    root: Type.Optional(Type.String({ description: "The folder every path is relative to (relative to the config file); it must exist. The working directory when absent" })),
  }),
  async setup(api, options) {
    const root = options.root === undefined ? process.cwd() : path.resolve(api.baseDir, options.root);
    for (const tool of await fileTools({ ...options, root })) api.tools.add(tool);
  },
});
