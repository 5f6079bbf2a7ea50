#!/usr/bin/env node
// A hand-written MCP server (2025-11-25 over stdio, no SDK) for what only the wire shows: it keeps the
// id of every request it receives and the requestId of every `notifications/cancelled`, and answers
// `tools/call` as no SDK server would let it.
// Tools: ids (the ids received so far, as JSON), cancelled (the cancelled requestIds, as JSON), hang (never
// answers), unreadable (a result whose `content` is not a list), refuse (a JSON-RPC error -32602 with data).
import { createInterface } from "node:readline";

const ids = [];
const cancelled = [];
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const text = (value) => ({ content: [{ type: "text", text: JSON.stringify(value) }] });
const tools = ["ids", "cancelled", "hang", "unreadable", "refuse"].map((name) => ({ name, description: name, inputSchema: { type: "object" } }));

for await (const line of createInterface({ input: process.stdin })) {
  const message = JSON.parse(line);
  if (message.method === "notifications/cancelled") cancelled.push(message.params.requestId);
  if (message.id === undefined || message.method === undefined) continue;
  ids.push(message.id);
  const answer = (result) => send({ jsonrpc: "2.0", id: message.id, result });
  if (message.method === "initialize") answer({ protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "wire", version: "1.0.0" } });
  else if (message.method === "tools/list") answer({ tools });
  else if (message.method !== "tools/call") send({ jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "Method not found" } });
  else if (message.params.name === "ids") answer(text(ids));
  else if (message.params.name === "cancelled") answer(text(cancelled));
  else if (message.params.name === "unreadable") answer({ content: "4" });
  else if (message.params.name === "refuse") send({ jsonrpc: "2.0", id: message.id, error: { code: -32602, message: "refuse takes no calls today", data: { retry: "tomorrow" } } });
}
