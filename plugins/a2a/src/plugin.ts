import { AbortFanout, defineConfigKey, definePlugin, PLUGIN_API_VERSION, Type, withCallHeaders } from "@weft/sdk";
import type { Tool, ToolResult } from "@weft/sdk";
import { agentConfigSchema } from "./agent-config.js";
import { loadAgentTools } from "./agent-tools.js";
import { CONVERSATIONS_SERVICE, Conversations } from "./conversations.js";
import { prepareAgents } from "./remote-agent.js";

export const A2A_PLUGIN_NAME = "@weft/plugin-a2a";

export const a2aPluginOptions = Type.Object(
  {
    agents: Type.Array(agentConfigSchema, { default: [], description: "Remote A2A agents; each skill of each card becomes a tool" }),
    deadline: Type.Optional(Type.Integer({ minimum: 1, description: "ms loading every card may take; past it loading fails naming the agents not loaded" })),
  },
  { additionalProperties: false },
);

export const a2aPlugin = definePlugin({
  meta: { name: A2A_PLUGIN_NAME, version: "0.1.0", api: PLUGIN_API_VERSION, description: "Remote A2A agents as tools: one tool per skill" },
  options: a2aPluginOptions,
  // `agents:` in weft.config.yaml (and createToolkit); agents rank after MCP, skills and the built-ins.
  config: { agents: defineConfigKey({ schema: Type.Array(agentConfigSchema), rank: 40, toOptions: (agents) => (agents.length > 0 ? { agents } : undefined) }) },
  setup(api, options) {
    // Before any fetch: a missing ${VAR} is a setup error naming it.
    const agents = prepareAgents(options.agents, process.env);
    const closing = new AbortController();
    // A session-state service: each session's contextIds and open tasks are stored with the session.
    const conversations = new Conversations();
    api.provide(CONVERSATIONS_SERVICE, conversations);
    const running = new Set<Promise<ToolResult>>();
    // The calls in flight follow `closing` through one listener, gone with the last call: an
    // `AbortSignal.any` with it per call left a dependant on it each (held until GC, walked on close).
    const aborts = new AbortFanout();
    api.hooks.tools.tap(async (registrar) => {
      // The kernel's signal: the host giving up on the load (its deadline) stops fetching the cards.
      const signal = AbortSignal.any([closing.signal, api.signal]);
      const tools = await loadAgentTools(agents, { logger: api.logger, deadline: options.deadline, signal, conversations });
      for (const tool of tools) registrar.add(untilClosed(tool));
    });
    // Closing aborts the calls in flight, which cancels their remote tasks, and waits for that.
    const untilClosed = (tool: Tool): Tool => ({
      ...tool,
      execute: (args, ctx) => {
        const trace = api.has("traceContext") ? api.need("traceContext").headers({ sessionId: ctx.session?.id, callId: ctx.callId }) : {};
        const stop = new AbortController();
        const follower = { handleEvent: () => stop.abort(closing.signal.reason) };
        if (closing.signal.aborted) stop.abort(closing.signal.reason);
        else aborts.follow(closing.signal, follower);
        // Both signals are the call's own: the combined one goes with them.
        const call = withCallHeaders(trace, () => tool.execute(args, { ...ctx, signal: AbortSignal.any([ctx.signal, stop.signal]) }));
        running.add(call);
        void call
          .finally(() => {
            running.delete(call);
            aborts.unfollow(closing.signal, follower);
          })
          .catch(() => {});
        return call;
      },
    });
    return async () => {
      closing.abort();
      await Promise.allSettled(running);
    };
  },
});
