// A stand-in for `donsetch mcp`: an MCP server over stdio with DonSeTch's three tool names, each
// answering with its own name and arguments so a test can see the call arrived.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "donsetch-stand-in", version: "1.0.0" });
const inputs = { web_search: { query: z.string() }, web_fetch: { url: z.string() }, web_crawl: { url: z.string() } };
for (const [name, inputSchema] of Object.entries(inputs)) {
  server.registerTool(name, { description: `stand-in ${name}`, inputSchema }, async (args) => ({
    content: [{ type: "text", text: `${name} ${JSON.stringify(args)}` }],
  }));
}
await server.connect(new StdioServerTransport());
