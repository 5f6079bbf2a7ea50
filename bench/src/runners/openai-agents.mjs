/**
 * OpenAI Agents SDK: an Agent on the Chat Completions model (the mock speaks that wire), tool(),
 * MCPServerStdio with its tool list cached (the SDK's documented option for servers whose tools do
 * not change, which every other runner gets by listing once at init). Tracing off: it exports to
 * OpenAI's servers.
 */
import { Agent, MCPServerStdio, OpenAIChatCompletionsModel, run, setTracingDisabled, tool } from "@openai/agents";
import OpenAI from "openai";
import { zodSchemas } from "../native-tools.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  setTracingDisabled(true);
  const model = new OpenAIChatCompletionsModel(new OpenAI({ baseURL: `${llmUrl}/v1`, apiKey: "bench" }), MODEL_ID);
  let tools = [];
  let instructions = SYSTEM;
  const mcpServers = [];
  if (scenario === "native") {
    tools = [
      tool({ name: "get_weather", description: TOOL_DESCRIPTIONS.get_weather, parameters: zodSchemas.get_weather, execute: async ({ city }) => weather(city) }),
      tool({ name: "add", description: TOOL_DESCRIPTIONS.add, parameters: zodSchemas.add, execute: async ({ a, b }) => add(a, b) }),
    ];
  } else {
    const server = new MCPServerStdio({ name: "bench", command: mcpServer.command, args: mcpServer.args, cacheToolsList: true });
    await server.connect();
    await server.listTools();
    mcpServers.push(server);
  }
  if (scenario === "full") {
    const skills = loadSkillsFolder(skillsDir);
    instructions = `${SYSTEM}\n\n${skills.catalog}`;
    tools = [
      tool({ name: NATIVE_EXTRA.name, description: NATIVE_EXTRA.description, parameters: zodSchemas.local_time, execute: async ({ city }) => NATIVE_EXTRA.run(city) }),
      tool({ name: READ_SKILL.name, description: READ_SKILL.description, parameters: zodSchemas.read_skill, execute: async ({ name }) => skills.read(name) }),
    ];
  }
  const agent = new Agent({ name: "bench", instructions, model, tools, mcpServers });
  return {
    async run() {
      const result = await run(agent, PROMPT, { stream: true, maxTurns: 5 });
      await result.completed;
      return result.finalOutput;
    },
    close: async () => {
      for (const server of mcpServers) await server.close();
    },
  };
}
