/**
 * LangChain.js: LangGraph's prebuilt ReAct agent over ChatOpenAI, @langchain/mcp-adapters over stdio.
 * Streamed the LangGraph way (streamMode "messages"): `invoke` on a streaming ChatOpenAI would count
 * prompt tokens with js-tiktoken, which downloads its encoding at run time (no network here).
 */
import { tool } from "@langchain/core/tools";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { MultiServerMCPClient } from "@langchain/mcp-adapters";
import { ChatOpenAI } from "@langchain/openai";
import { zodSchemas } from "../native-tools.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  const llm = new ChatOpenAI({ model: MODEL_ID, apiKey: "bench", streaming: true, configuration: { baseURL: `${llmUrl}/v1` } });
  let tools = [];
  let prompt = SYSTEM;
  let mcp;
  if (scenario === "native") {
    tools = [
      tool(async ({ city }) => weather(city), { name: "get_weather", description: TOOL_DESCRIPTIONS.get_weather, schema: zodSchemas.get_weather }),
      tool(async ({ a, b }) => add(a, b), { name: "add", description: TOOL_DESCRIPTIONS.add, schema: zodSchemas.add }),
    ];
  } else {
    mcp = new MultiServerMCPClient({
      mcpServers: { bench: { transport: "stdio", command: mcpServer.command, args: mcpServer.args, stderr: "ignore" } },
    });
    tools = await mcp.getTools();
  }
  if (scenario === "full") {
    const skills = loadSkillsFolder(skillsDir);
    prompt = `${SYSTEM}\n\n${skills.catalog}`;
    tools = [
      ...tools,
      tool(async ({ city }) => NATIVE_EXTRA.run(city), { name: NATIVE_EXTRA.name, description: NATIVE_EXTRA.description, schema: zodSchemas.local_time }),
      tool(async ({ name }) => skills.read(name), { name: READ_SKILL.name, description: READ_SKILL.description, schema: zodSchemas.read_skill }),
    ];
  }
  const agent = createReactAgent({ llm, tools, prompt });
  return {
    async run() {
      let state;
      const stream = await agent.stream({ messages: [{ role: "user", content: PROMPT }] }, { streamMode: ["messages", "values"] });
      for await (const [mode, chunk] of stream) if (mode === "values") state = chunk;
      return state.messages.at(-1).content;
    },
    close: async () => mcp?.close(),
  };
}
