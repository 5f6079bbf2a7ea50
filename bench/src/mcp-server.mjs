/**
 * The stdio MCP server every framework's MCP scenario talks to: get_weather, add and echo, answering
 * at once with no network. Built on the official SDK's server classes.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";
import { TOOL_DESCRIPTIONS, add, echo, weather } from "./script.mjs";

const server = new McpServer({ name: "bench", version: "1.0.0" });
const text = (value) => ({ content: [{ type: "text", text: value }] });

server.registerTool(
  "get_weather",
  { description: TOOL_DESCRIPTIONS.get_weather, inputSchema: { city: z.string().describe("City name") } },
  async ({ city }) => text(weather(city)),
);
server.registerTool(
  "add",
  { description: TOOL_DESCRIPTIONS.add, inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => text(add(a, b)),
);
server.registerTool(
  "echo",
  { description: TOOL_DESCRIPTIONS.echo, inputSchema: { text: z.string() } },
  async ({ text: value }) => text(echo(value)),
);

// `--tools N` publishes N more tools (the scale bench's tool-count rows), echoing like `echo`.
const toolsFlag = process.argv.indexOf("--tools");
const extra = toolsFlag > 0 ? Number(process.argv[toolsFlag + 1]) : 0;
for (let index = 0; index < extra; index++) {
  server.registerTool(
    `lookup_${index}`,
    { description: `Looks up record ${index} of the catalogue by its key.`, inputSchema: { key: z.string().describe("The record's key") } },
    async ({ key }) => text(echo(key)),
  );
}

await server.connect(new StdioServerTransport());
