/** Mastra: an Agent on Mastra's OpenAI-compatible model router, createTool, @mastra/mcp's MCPClient over stdio. */
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { MCPClient } from "@mastra/mcp";
import { zodSchemas } from "../native-tools.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  let tools = {};
  let instructions = SYSTEM;
  let mcp;
  if (scenario === "native") {
    tools = {
      get_weather: createTool({ id: "get_weather", description: TOOL_DESCRIPTIONS.get_weather, inputSchema: zodSchemas.get_weather, execute: async ({ city }) => weather(city) }),
      add: createTool({ id: "add", description: TOOL_DESCRIPTIONS.add, inputSchema: zodSchemas.add, execute: async ({ a, b }) => add(a, b) }),
    };
  } else {
    mcp = new MCPClient({ id: "bench", servers: { bench: { command: mcpServer.command, args: mcpServer.args } } });
    tools = await mcp.listTools();
  }
  if (scenario === "full") {
    const skills = loadSkillsFolder(skillsDir);
    instructions = `${SYSTEM}\n\n${skills.catalog}`;
    tools = {
      ...tools,
      [NATIVE_EXTRA.name]: createTool({ id: NATIVE_EXTRA.name, description: NATIVE_EXTRA.description, inputSchema: zodSchemas.local_time, execute: async ({ city }) => NATIVE_EXTRA.run(city) }),
      [READ_SKILL.name]: createTool({ id: READ_SKILL.name, description: READ_SKILL.description, inputSchema: zodSchemas.read_skill, execute: async ({ name }) => skills.read(name) }),
    };
  }
  const agent = new Agent({
    id: "bench",
    name: "bench",
    instructions,
    model: { providerId: "bench", modelId: MODEL_ID, url: `${llmUrl}/v1`, apiKey: "bench" },
    tools,
  });
  return {
    async run() {
      const stream = await agent.stream(PROMPT, { maxSteps: 5 });
      return await stream.text;
    },
    close: async () => mcp?.disconnect(),
  };
}
