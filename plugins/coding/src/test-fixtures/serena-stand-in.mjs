// A stand-in for `uvx --from ... serena start-mcp-server`: an MCP server over stdio with a few of
// Serena's tool names, each answering with its own name and arguments.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "serena-stand-in", version: "1.0.0" });
const inputs = {
  initial_instructions: {},
  find_symbol: { name_path: z.string() },
  replace_symbol_body: { name_path: z.string(), relative_path: z.string(), body: z.string() },
};
for (const [name, inputSchema] of Object.entries(inputs)) {
  server.registerTool(name, { description: `stand-in ${name}`, inputSchema }, async (args) => ({
    content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
  }));
}
await server.connect(new StdioServerTransport());
