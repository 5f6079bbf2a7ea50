import { PLUGIN_API_VERSION, definePlugin, builtinsConfigKey, toolPackOptions, type McpServerConfig, Type } from "@weft/sdk";
import { startDonsetch } from "./donsetch.js";
import { DEFAULT_WEB_LIMITS } from "./web-limits.js";
import { WEB_PLUGIN_NAME, webTools } from "./web-tools.js";

export const webPlugin = definePlugin({
  meta: { name: WEB_PLUGIN_NAME, version: "0.1.0", api: PLUGIN_API_VERSION, description: "web search, fetch and crawl: DonSeTch when installed, native otherwise" },
  config: { builtins: builtinsConfigKey() },
  options: Type.Object({
    ...toolPackOptions,
    backend: Type.Union([Type.Literal("auto"), Type.Literal("donsetch"), Type.Literal("native")], {
      default: "auto",
      description: "auto: DonSeTch when the donsetch executable is on PATH, else native",
    }),
    server: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "McpServerConfig fields merged over donsetchMcpConfig()" })),
    searxngUrl: Type.Optional(Type.String({ description: "SearXNG base URL; enables web_search" })),
    braveApiKey: Type.Optional(Type.String({ description: "Brave Search API key; enables web_search" })),
    braveUrl: Type.Optional(Type.String({ description: "Brave Search endpoint" })),
    timeoutMs: Type.Integer({ default: DEFAULT_WEB_LIMITS.timeoutMs, minimum: 1, description: "One fetch's time limit" }),
    maxBytes: Type.Integer({ default: DEFAULT_WEB_LIMITS.maxBytes, minimum: 1, description: "Body bytes read per page (and per crawl)" }),
    maxRedirects: Type.Integer({ default: DEFAULT_WEB_LIMITS.maxRedirects, minimum: 0, description: "Redirects followed per fetch" }),
    maxPages: Type.Integer({ default: DEFAULT_WEB_LIMITS.maxPages, minimum: 1, description: "Pages one crawl may fetch" }),
    userAgent: Type.String({ default: DEFAULT_WEB_LIMITS.userAgent }),
    allowPrivateNetwork: Type.Boolean({ default: false, description: "Let the tools reach loopback, private, link-local, unique-local and multicast addresses" }),
    allowHosts: Type.Array(Type.String(), { default: [], description: "Hosts and CIDR ranges the tools may reach although private" }),
    conversionBudgetMs: Type.Integer({ default: DEFAULT_WEB_LIMITS.conversionBudgetMs, minimum: 1, description: "Time one page's HTML conversion may take; past it the page is what was converted so far" }),
  }),
  setup(api, options) {
    // At tools time every plugin has set up, so whether the MCP plugin is enabled is known.
    api.hooks.tools.tap(async (registrar) => {
      if (!options.builtins && options.backend !== "native") {
        const server = await startDonsetch(api, { backend: options.backend, server: options.server as Partial<McpServerConfig> | undefined, tools: options.tools });
        if (server) {
          api.hooks.close.tap(() => server.close());
          return;
        }
      }
      for (const tool of webTools(options)) registrar.add(tool);
    });
  },
});
