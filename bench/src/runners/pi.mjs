/**
 * pi (@mariozechner/pi-agent-core on @mariozechner/pi-ai): a lean agent loop — an `Agent` with
 * typebox tools, parallel tool execution, a custom OpenAI-compatible model. It has no MCP adapter or
 * skills feature, so the `mcp` scenario wires the official MCP client's tools in by hand, as its
 * users do, and `full` adds the hand-written skills folder.
 */
import { Agent } from "@mariozechner/pi-agent-core";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Type } from "typebox";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

const text = (value) => ({ content: [{ type: "text", text: value }], details: {} });

function localTool(name, description, parameters, run) {
  return { name, label: name, description, parameters, execute: async (_id, params) => text(run(params)) };
}

async function mcpTools(mcpServer) {
  const client = new Client({ name: "bench-pi", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: mcpServer.command, args: mcpServer.args, stderr: "ignore" }));
  const { tools } = await client.listTools();
  return {
    client,
    tools: tools.map((tool) => ({
      name: tool.name,
      label: tool.name,
      description: tool.description ?? "",
      parameters: tool.inputSchema,
      execute: async (_id, params) => {
        const result = await client.callTool({ name: tool.name, arguments: params });
        return { content: result.content.filter((block) => block.type === "text"), details: {} };
      },
    })),
  };
}

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  const model = {
    id: MODEL_ID,
    name: MODEL_ID,
    api: "openai-completions",
    provider: "bench",
    baseUrl: `${llmUrl}/v1`,
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 128000,
    maxTokens: 4096,
  };
  let tools = [];
  let systemPrompt = SYSTEM;
  let mcp;
  if (scenario === "native") {
    tools = [
      localTool("get_weather", TOOL_DESCRIPTIONS.get_weather, Type.Object({ city: Type.String({ description: "City name" }) }), ({ city }) => weather(city)),
      localTool("add", TOOL_DESCRIPTIONS.add, Type.Object({ a: Type.Number(), b: Type.Number() }), ({ a, b }) => add(a, b)),
    ];
  } else {
    mcp = await mcpTools(mcpServer);
    tools = mcp.tools;
  }
  if (scenario === "full") {
    const skills = loadSkillsFolder(skillsDir);
    systemPrompt = `${SYSTEM}\n\n${skills.catalog}`;
    tools.push(
      localTool(NATIVE_EXTRA.name, NATIVE_EXTRA.description, Type.Object({ city: Type.String() }), ({ city }) => NATIVE_EXTRA.run(city)),
      localTool(READ_SKILL.name, READ_SKILL.description, Type.Object({ name: Type.String({ description: "The skill's name" }) }), ({ name }) => skills.read(name)),
    );
  }
  const agent = new Agent({ initialState: { systemPrompt, model, tools }, getApiKey: () => "bench" });
  return {
    async run() {
      // Each run is a fresh conversation, as for every other framework.
      agent.reset();
      await agent.prompt(PROMPT);
      const last = agent.state.messages.at(-1);
      if (agent.state.errorMessage) throw new Error(agent.state.errorMessage);
      return last?.content?.filter((part) => part.type === "text").map((part) => part.text).join("") ?? "";
    },
    close: async () => mcp?.client.close(),
  };
}
