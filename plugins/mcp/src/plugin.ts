import { Type } from "@weft/sdk/typebox";
import { PLUGIN_API_VERSION, definePlugin, type WaitFor } from "@weft/sdk";
import { loadMcpConfig } from "./config.js";
import { mcpManager } from "./manager.js";

const options = Type.Object({
  /** mcp.json: a path (relative to the weft.config.yaml folder), raw JSON text, or the parsed object. */
  config: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown())])),
  /** Bounds the start of all servers together (with `deadlineMs`), whatever each one's `timeout`. */
  signal: Type.Optional(Type.Unsafe<AbortSignal>({})),
  /** Bounds the start of all servers together, whatever each one's `timeout`. */
  deadlineMs: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2_147_483_647 })),
  /** Advertise elicitation: set it when the host answers `pending` requests (it has a `waitFor`). */
  elicitation: Type.Optional(Type.Boolean()),
  /** The host's resolver, as the toolkit passes it: its presence turns elicitation on. Never called here. */
  waitFor: Type.Optional(Type.Unsafe<WaitFor>({})),
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
  setup(api, settings) {
    const servers = settings.config === undefined ? [] : loadMcpConfig(settings.config, { baseDir: api.baseDir });
    const manager = mcpManager(api, {
      elicitation: settings.elicitation ?? settings.waitFor !== undefined,
      elicitationTimeoutMs: settings.elicitationTimeoutMs,
      reconnect: settings.reconnect,
    });
    for (const server of servers) manager.register(server);
    api.provide("mcp", manager);
    api.hooks.tools.tap(async () => {
      await manager.startAll({ signal: settings.signal, deadlineMs: settings.deadlineMs });
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
