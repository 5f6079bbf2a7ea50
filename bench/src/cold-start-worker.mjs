// One cold start of a library: import a runner of src/runners and set its scenario up (model, tools,
// MCP connect and list), then close and exit. cold-start.mjs times the whole process from the outside.
//   node cold-start-worker.mjs '{"runner": "/abs/runners/weft.mjs", "scenario": "mcp", "mcpServer": {…}, "skillsDir": "…"}'
import { pathToFileURL } from "node:url";

const config = JSON.parse(process.argv[2] ?? "{}");
const runner = await import(pathToFileURL(config.runner).href);
// No model call happens during setup: the URL is never reached.
const agent = await runner.setup({ llmUrl: "http://127.0.0.1:9", ...config });
await agent.close();
