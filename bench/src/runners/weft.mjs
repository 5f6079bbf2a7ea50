/**
 * weft: a kernel with the openai-compatible provider (@weft/plugin-openrouter), the MCP bridge
 * (@weft/plugin-mcp with an mcp.json object) and the skills plugin,
 * and the agent from @weft/core. Resolved from the workspace (bench/ has no copy of them), built dist/.
 * The MCP and skills plugins are imported when a scenario enables them, as weft loads plugins named in
 * a config; their import time is then part of init.
 */
import { createAgent, createKernel } from "@weft/core";
import openrouterPlugin from "@weft/plugin-openrouter";
import { defineTool } from "@weft/sdk";
import { Type } from "@weft/sdk/typebox";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** `onPhase(name)`, when given, marks the end of each phase (model1, tools, model2) for phase-split.mjs. */
export function setup(options) {
  return setupWeft(options, (kernel) =>
    kernel.createModel({ provider: "openai-compatible", model: MODEL_ID, baseUrl: `${options.llmUrl}/v1`, apiKey: "bench" }),
  );
}

/**
 * The weft row with the model `createModel(kernel)` gives (weft-ai-sdk.mjs swaps in the AI SDK adapter).
 * The scale bench (scale.mjs) also gives `mcpServers` (several), `system`, `prior` (messages before the
 * prompt: each run starts a session on them) and `sessions` (that many agents on the kernel, run at once).
 */
export async function setupWeft({ scenario, mcpServer, mcpServers = [mcpServer], skillsDir, onPhase, system = SYSTEM, prior, sessions = 1 }, createModel) {
  const kernel = createKernel({ logger: silent });
  if (onPhase) {
    // The script has two model replies and one round of two tool calls.
    let responses = 0;
    let returned = 0;
    kernel.hooks.feedback.tap("bench-phases", (event) => {
      if (event.type === "model.response") onPhase(`model${++responses}`);
      else if (event.type === "tool.returned" && ++returned === 2) onPhase("tools");
      else if (event.type === "turn.finished") responses = returned = 0;
    });
  }
  await kernel.use(openrouterPlugin);
  const tools = [];
  if (scenario === "native") {
    tools.push(
      defineTool({
        name: "get_weather",
        description: TOOL_DESCRIPTIONS.get_weather,
        input: Type.Object({ city: Type.String({ description: "City name" }) }),
        execute: ({ city }) => ({ output: weather(city) }),
      }),
      defineTool({
        name: "add",
        description: TOOL_DESCRIPTIONS.add,
        input: Type.Object({ a: Type.Number(), b: Type.Number() }),
        execute: ({ a, b }) => ({ output: add(a, b) }),
      }),
    );
  } else {
    const { default: mcpPlugin } = await import("@weft/plugin-mcp");
    const servers = mcpServers.map((server, index) => [mcpServers.length > 1 ? `s${index}` : "bench", { command: server.command, args: server.args }]);
    await kernel.use(mcpPlugin, { config: { mcpServers: Object.fromEntries(servers) } });
  }
  if (scenario === "full") {
    const { default: skillsPlugin } = await import("@weft/plugin-skills");
    await kernel.use(skillsPlugin, { paths: [skillsDir] });
    tools.push(
      defineTool({
        name: NATIVE_EXTRA.name,
        description: NATIVE_EXTRA.description,
        input: Type.Object({ city: Type.String() }),
        execute: ({ city }) => ({ output: NATIVE_EXTRA.run(city) }),
      }),
    );
  }
  // ready() starts the MCP servers and lists their tools; createModel would run it too.
  await kernel.ready();
  const model = await createModel(kernel);
  const agents = Array.from({ length: sessions }, () => createAgent({ model, kernel }));
  for (const agent of agents) await agent.startSession({ prompt: system, tools });
  const runOne = async (agent) => {
    // Each run is a fresh conversation, as for every other framework; one with prior messages continues them.
    if (prior) await agent.startSession({ prompt: system, tools, messages: prior });
    else await agent.resetSession();
    return (await agent.process(PROMPT)).content;
  };
  return {
    run: sessions === 1 ? () => runOne(agents[0]) : async () => (await Promise.all(agents.map(runOne))).join("\n"),
    close: async () => {
      for (const agent of agents) await agent.close();
      await kernel.close();
    },
  };
}
