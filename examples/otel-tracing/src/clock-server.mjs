// A stdio MCP server with one tool, `time`: the current time in an IANA zone. The traced agent calls
// it through @weft/plugin-mcp, so the trace shows the MCP client spans as well.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const server = new Server({ name: "clock", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    {
      name: "time",
      description: "The current time in a time zone",
      inputSchema: { type: "object", properties: { zone: { type: "string", description: "IANA zone, e.g. Europe/Oslo" } }, required: ["zone"] },
    },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, (request) => ({
  content: [{ type: "text", text: new Date().toLocaleTimeString("en-GB", { timeZone: String(request.params.arguments?.zone) }) }],
}));
await server.connect(new StdioServerTransport());
