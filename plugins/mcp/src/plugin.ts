import { defineConfigKey, definePlugin, PLUGIN_API_VERSION, Type } from "@weft/sdk";
import type { McpTokenStore } from "./token-store.js";
import { loadMcpConfig } from "./config.js";
import { mcpManager } from "./manager.js";

/** mcp.json: a path (relative to the weft.config.yaml folder), raw JSON text, or the parsed object. */
const mcpConfig = Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())]);

/** `mcp:` (and the toolkit's older `mcpConfig`): the servers; a parsed mcp.json may carry `builtins` and `agents` too. */
const mcpKey = defineConfigKey({
  schema: mcpConfig,
  rank: 10,
  toOptions: (config) => ({ config }),
  carries: (config) => (typeof config === "string" ? {} : Object.fromEntries(["builtins", "agents"].filter((key) => key in config).map((key) => [key, config[key]]))),
});

const options = Type.Object({
  config: Type.Optional(mcpConfig),
  /** Bounds the start of all servers together, whatever each one's `timeout`. */
  deadlineMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2_147_483_647 })),
  /** Advertise elicitation; by default when the host answers `pending` requests (it gave the kernel a `waitFor`). */
  elicitation: Type.Optional(Type.Boolean()),
  /** Where OAuth tokens persist (`McpTokenStore`); by default a 0600 file under the user's config dir. */
  tokenStore: Type.Optional(Type.Unsafe<McpTokenStore>({})),
  /** How long a server's question waits for the host before it is cancelled. */
  elicitationTimeoutMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2_147_483_647 })),
  /** How remote servers whose session was lost are reconnected (first attempt at once, then capped backoff). */
  reconnect: Type.Optional(
    Type.Object(
      {
        initialDelayMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2_147_483_647 })),
        maxDelayMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2_147_483_647 })),
        attempts: Type.Optional(Type.Integer({ minimum: 1 })),
      },
      { additionalProperties: false },
    ),
  ),
  /** Add the servers' `instructions` to the system prompt. */
  instructions: Type.Optional(Type.Boolean()),
});

/**
 * Every MCP server of an mcp.json as weft tools. Setup validates the config (a bad one throws
 * MCP_CONFIG_INVALID), publishes the `mcp` service, starts the servers when the kernel gathers tools,
 * and stops them (whole process groups) when it closes.
 */
export const mcpPlugin = definePlugin({
  meta: { name: "@weft/plugin-mcp", version: "0.1.0", api: PLUGIN_API_VERSION, description: "MCP servers as weft tools" },
  options,
  config: { mcp: mcpKey, mcpConfig: mcpKey },
  setup(api, settings) {
    const servers = settings.config === undefined ? [] : loadMcpConfig(settings.config, { baseDir: api.baseDir });
    const manager = mcpManager(api, {
      elicitation: settings.elicitation ?? api.waitFor !== undefined,
      elicitationTimeoutMs: settings.elicitationTimeoutMs,
      reconnect: settings.reconnect,
      tokenStore: settings.tokenStore,
    });
    for (const server of servers) manager.register(server);
    api.provide("mcp", manager);
    api.hooks.tools.tap(async () => {
      await manager.startAll({ signal: api.signal, deadlineMs: settings.deadlineMs });
    });
    if (settings.instructions) {
      api.hooks.prompt.tap((sections) => {
        const instructions = manager.instructions();
        if (instructions.length === 0) return sections;
        return [...sections, ["# MCP server instructions", ...instructions.map(({ server, text }) => `## ${server}\n\n${text.trim()}`)].join("\n\n")];
      });
    }
    api.hooks.close.tap(() => manager.close());
  },
});
