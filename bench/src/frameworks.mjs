/**
 * What is measured: one runner file per framework, the scenarios it runs, and the packages whose
 * versions go into results.json (weft's come from the workspace, the peers' from bench/node_modules).
 */
import { SCENARIOS } from "./script.mjs";

export const FRAMEWORKS = [
  { name: "floor", runner: "runners/floor.mjs", scenarios: ["mcp", "full"], packages: ["@modelcontextprotocol/sdk"] },
  { name: "floor-rpc", runner: "runners/floor-rpc.mjs", scenarios: ["mcp", "full"], packages: [] },
  { name: "floor-http", runner: "runners/floor-http.mjs", scenarios: ["mcp", "full"], packages: [] },
  {
    name: "weft",
    runner: "runners/weft.mjs",
    scenarios: SCENARIOS,
    packages: ["@weft/core", "@weft/sdk", "@weft/plugin-openrouter", "@weft/plugin-mcp", "@weft/plugin-skills"],
  },
  {
    name: "weft-ai-sdk",
    runner: "runners/weft-ai-sdk.mjs",
    scenarios: ["native"],
    packages: ["@weft/core", "@weft/ai-sdk", "@ai-sdk/openai-compatible"],
  },
  {
    name: "vercel-ai",
    runner: "runners/vercel-ai.mjs",
    scenarios: SCENARIOS,
    packages: ["ai", "@ai-sdk/openai-compatible", "@ai-sdk/mcp"],
  },
  {
    name: "langchain",
    runner: "runners/langchain.mjs",
    scenarios: SCENARIOS,
    packages: ["@langchain/core", "@langchain/openai", "@langchain/langgraph", "@langchain/mcp-adapters"],
  },
  { name: "mastra", runner: "runners/mastra.mjs", scenarios: SCENARIOS, packages: ["@mastra/core", "@mastra/mcp"] },
  {
    name: "pi",
    runner: "runners/pi.mjs",
    scenarios: SCENARIOS,
    packages: ["@mariozechner/pi-agent-core", "@mariozechner/pi-ai", "@modelcontextprotocol/sdk"],
  },
  { name: "openai-agents", runner: "runners/openai-agents.mjs", scenarios: SCENARIOS, packages: ["@openai/agents"] },
];
