#!/usr/bin/env node
// A stdio MCP server (the official SDK's) that appends every message it receives and sends, one JSON
// line each, to the file named by RECORD_FILE, so a test can read what really crossed the pipe.
// Tools: weather (answers), fail (a result with isError), boom (the handler throws: a JSON-RPC error),
// ask (asks the client which city, by elicitation, and answers with it).
import { appendFileSync } from "node:fs";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const file = process.env.RECORD_FILE;
const record = (direction, message) => file && appendFileSync(file, `${JSON.stringify({ direction, message })}\n`);

const server = new Server({ name: "recording", version: "1.0.0" }, { capabilities: { tools: {} } });
const input = { type: "object", properties: { city: { type: "string" } } };
server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [
    { name: "weather", description: "Weather for a city", inputSchema: input },
    { name: "fail", description: "Always fails", inputSchema: input },
    { name: "boom", description: "Throws", inputSchema: input },
    { name: "ask", description: "Asks which city", inputSchema: input },
  ],
}));
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  if (request.params.name === "ask") {
    const answer = await server.elicitInput({ message: "Which city?", requestedSchema: { type: "object", properties: { city: { type: "string" } } } });
    return { content: [{ type: "text", text: `${answer.action}: ${String(answer.content?.city)}` }] };
  }
  const city = String(request.params.arguments?.city ?? "");
  if (request.params.name === "fail") return { content: [{ type: "text", text: `no weather for ${city}` }], isError: true };
  if (request.params.name === "boom") throw new Error(`exploded on ${city}`);
  return { content: [{ type: "text", text: `${city}: 12 C` }] };
});

const transport = new StdioServerTransport();
await server.connect(transport);
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => {
  record("received", message);
  deliver?.(message, extra);
};
const send = transport.send.bind(transport);
transport.send = (message, options) => {
  record("sent", message);
  return send(message, options);
};
