import { Type } from "typebox";
import { PLUGIN_API_VERSION, defineConfigKey, definePlugin } from "@weft/sdk";
import { endpointSchema, endpointTool } from "./endpoint-tool.js";

export { endpointTool, endpointSchema, MAX_BODY_CHARS, type Endpoint } from "./endpoint-tool.js";

const endpoints = Type.Record(Type.String(), endpointSchema);

/**
 * A tool source, a peer of MCP and skills: `endpoints:` in weft.config.yaml (or createToolkit's
 * options) maps tool names to URLs. List the plugin under `plugins:` so the loader knows who reads the
 * key; options given there (`only`) merge with the key's. Its tools rank after MCP servers' and before
 * skills and built-ins when two sources offer the same name.
 */
export default definePlugin({
  meta: { name: "weft-plugin-endpoints", version: "0.1.0", api: PLUGIN_API_VERSION, description: "HTTP endpoints as tools" },
  options: Type.Object({
    endpoints: Type.Optional(endpoints),
    /** Offer only these endpoints (all when absent). */
    only: Type.Optional(Type.Array(Type.String())),
  }),
  config: {
    endpoints: defineConfigKey({ schema: endpoints, rank: 15, toOptions: (value) => ({ endpoints: value }) }),
  },
  setup(api, options) {
    api.hooks.tools.tap((tools) => {
      for (const [name, endpoint] of Object.entries(options.endpoints ?? {})) {
        if (!options.only || options.only.includes(name)) tools.add(endpointTool(name, endpoint));
      }
    });
  },
});
