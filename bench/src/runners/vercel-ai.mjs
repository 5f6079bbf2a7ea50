/** Vercel AI SDK: streamText with a step limit, the OpenAI-compatible provider, @ai-sdk/mcp over stdio. */
import { createMCPClient } from "@ai-sdk/mcp";
import { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { stepCountIs, streamText, tool } from "ai";
import { zodSchemas } from "../native-tools.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM, TOOL_DESCRIPTIONS, add, weather } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

export async function setup({ scenario, llmUrl, mcpServer, skillsDir }) {
  const provider = createOpenAICompatible({ name: "bench", baseURL: `${llmUrl}/v1`, apiKey: "bench", includeUsage: true });
  const model = provider.chatModel(MODEL_ID);
  let tools = {};
  let system = SYSTEM;
  let mcp;
  if (scenario === "native") {
    tools = {
      get_weather: tool({ description: TOOL_DESCRIPTIONS.get_weather, inputSchema: zodSchemas.get_weather, execute: async ({ city }) => weather(city) }),
      add: tool({ description: TOOL_DESCRIPTIONS.add, inputSchema: zodSchemas.add, execute: async ({ a, b }) => add(a, b) }),
    };
  } else {
    mcp = await createMCPClient({ transport: new StdioMCPTransport({ command: mcpServer.command, args: mcpServer.args, stderr: "ignore" }) });
    tools = await mcp.tools();
  }
  if (scenario === "full") {
    const skills = loadSkillsFolder(skillsDir);
    system = `${SYSTEM}\n\n${skills.catalog}`;
    tools = {
      ...tools,
      [NATIVE_EXTRA.name]: tool({ description: NATIVE_EXTRA.description, inputSchema: zodSchemas.local_time, execute: async ({ city }) => NATIVE_EXTRA.run(city) }),
      [READ_SKILL.name]: tool({ description: READ_SKILL.description, inputSchema: zodSchemas.read_skill, execute: async ({ name }) => skills.read(name) }),
    };
  }
  return {
    async run() {
      const result = streamText({ model, system, prompt: PROMPT, tools, stopWhen: stepCountIs(5) });
      return await result.text;
    },
    close: async () => mcp?.close(),
  };
}
