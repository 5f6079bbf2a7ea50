/**
 * Mastra: an Agent on Mastra's OpenAI-compatible model router, createTool, @mastra/mcp's MCPClient over
 * stdio, and the agent's own `skills` option for the skills folder.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { Agent } from "@mastra/core/agent";
import { createTool } from "@mastra/core/tools";
import { MCPClient } from "@mastra/mcp";
import { zodSchemas } from "../native-tools.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  let tools = {};
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
  let skills;
  if (scenario === "full") {
    // Mastra's own skills: the agent's `skills` option takes SKILL.md folders.
    skills = readdirSync(skillsDir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(skillsDir, entry.name));
    tools = {
      ...tools,
      [NATIVE_EXTRA.name]: createTool({ id: NATIVE_EXTRA.name, description: NATIVE_EXTRA.description, inputSchema: zodSchemas.local_time, execute: async ({ city }) => NATIVE_EXTRA.run(city) }),
    };
  }
  const agent = new Agent({
    id: "bench",
    name: "bench",
    instructions: SYSTEM,
    model: { providerId: "bench", modelId: MODEL_ID, url: `${llmUrl}/v1`, apiKey: "bench" },
    tools,
    skills,
  });
  return {
    async run() {
      const stream = await agent.stream(PROMPT, { maxSteps: 5 });
      return await stream.text;
    },
    close: async () => mcp?.disconnect(),
  };
}
