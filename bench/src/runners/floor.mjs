/**
 * The floor: the same two model round trips and two MCP calls with a bare HTTP client and an MCP client,
 * and nothing else. Three rows: `floor` with fetch and the official MCP client (`mcp: "sdk"`), `floor-rpc`
 * with fetch and the minimal hand-written JSON-RPC client of ../mcp-rpc-client.mjs (`mcp: "rpc"`), and
 * `floor-http` with that client on node:http (`http: "node"`); the tables measure against the fastest. No
 * framework can do this work for less on this machine.
 * In `full` the requests also carry what that scenario gives every framework, as the hand-written peers
 * send it: the skills catalog in the system prompt and the local_time and read_skill tools (the script
 * never calls them, so the floor needs no code behind them). Without them the floor's request would be
 * a third of any framework's and the row would measure prompt size, not overhead.
 */
import { Agent, request } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { connectRpc } from "../mcp-rpc-client.mjs";
import { MODEL_ID, NATIVE_EXTRA, PROMPT, SYSTEM } from "../script.mjs";
import { READ_SKILL, loadSkillsFolder } from "../skills-folder.mjs";

async function connectSdk(mcpServer) {
  const client = new Client({ name: "bench-floor", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: mcpServer.command, args: mcpServer.args, stderr: "ignore" }));
  return client;
}

/** Reads a Chat Completions SSE body: the text and the tool calls, assembled by index. */
function readStream(body) {
  let content = "";
  const calls = [];
  for (const line of body.split("\n")) {
    if (!line.startsWith("data: ") || line === "data: [DONE]") continue;
    const delta = JSON.parse(line.slice(6)).choices[0]?.delta;
    if (!delta) continue;
    if (delta.content) content += delta.content;
    for (const part of delta.tool_calls ?? []) {
      calls[part.index] ??= { id: "", name: "", arguments: "" };
      const call = calls[part.index];
      if (part.id) call.id = part.id;
      if (part.function?.name) call.name += part.function.name;
      if (part.function?.arguments) call.arguments += part.function.arguments;
    }
  }
  return { content, calls };
}

/** Connects to every server and lists its tools; with several, each tool is named `s<i>__<tool>`, as MCP adapters prefix them. */
async function connectAll(servers, mcp) {
  const clients = await Promise.all(servers.map((server) => (mcp === "rpc" ? connectRpc(server) : connectSdk(server))));
  const routes = new Map();
  const specs = [];
  for (const [index, client] of clients.entries()) {
    for (const tool of (await client.listTools()).tools) {
      const name = clients.length > 1 ? `s${index}__${tool.name}` : tool.name;
      routes.set(name, { client, name: tool.name });
      specs.push({ type: "function", function: { name, description: tool.description, parameters: tool.inputSchema } });
    }
  }
  return { clients, routes, specs };
}

/** A Chat Completions tool spec for an in-process tool with these string properties, all required. */
const functionSpec = ({ name, description }, properties) => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required: Object.keys(properties) } },
});

const HEADERS = { "content-type": "application/json", authorization: "Bearer bench" };

/** POSTs a body with fetch and resolves with the response's text. */
const fetchPoster = (url) => ({
  async post(body) {
    const response = await fetch(url, { method: "POST", headers: HEADERS, body });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
    return response.text();
  },
  close() {},
});

/** The same with node:http on a kept-alive connection: far less per request than fetch, as weft's own client. */
const nodePoster = (url) => {
  const agent = new Agent({ keepAlive: true });
  const { hostname, port, pathname } = new URL(url);
  const post = (body) =>
    new Promise((resolve, reject) => {
      const payload = Buffer.from(body);
      const sent = request({ hostname, port, path: pathname, method: "POST", agent, headers: { ...HEADERS, "content-length": payload.length } }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => {
          text += chunk;
        });
        response.on("end", () => (response.statusCode === 200 ? resolve(text) : reject(new Error(`HTTP ${response.statusCode}: ${text}`))));
      });
      sent.on("error", reject);
      sent.end(payload);
    });
  return { post, close: () => agent.destroy() };
};

/**
 * `onPhase(name)`, when given, marks the end of each phase (model1, tools, model2) for phase-split.mjs.
 * The scale bench (scale.mjs) also gives `mcpServers` (several), `system` and `prior` (messages before the prompt).
 */
export async function setup({ scenario, skillsDir, llmUrl, mcpServer, mcpServers = [mcpServer], mcp = "sdk", http = "fetch", system = SYSTEM, prior = [], onPhase = () => {} }) {
  const { clients, routes, specs } = await connectAll(mcpServers, mcp);
  if (scenario === "full") {
    system = `${system}\n\n${loadSkillsFolder(skillsDir).catalog}`;
    specs.push(functionSpec(NATIVE_EXTRA, { city: { type: "string" } }), functionSpec(READ_SKILL, { name: { type: "string", description: "The skill's name" } }));
  }

  const llm = (http === "node" ? nodePoster : fetchPoster)(`${llmUrl}/v1/chat/completions`);
  const complete = async (messages) => readStream(await llm.post(JSON.stringify({ model: MODEL_ID, messages, tools: specs, stream: true })));
  const callTool = (call) => {
    const route = routes.get(call.name);
    return route.client.callTool({ name: route.name, arguments: JSON.parse(call.arguments) });
  };

  return {
    async run() {
      const messages = [{ role: "system", content: system }, ...prior, { role: "user", content: PROMPT }];
      const first = await complete(messages);
      onPhase("model1");
      const results = await Promise.all(first.calls.map(callTool));
      onPhase("tools");
      messages.push({
        role: "assistant",
        content: null,
        tool_calls: first.calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
      });
      first.calls.forEach((call, index) => {
        messages.push({ role: "tool", tool_call_id: call.id, content: results[index].content.map((block) => block.text).join("") });
      });
      const { content } = await complete(messages);
      onPhase("model2");
      return content;
    },
    close: () => {
      llm.close();
      return Promise.all(clients.map((client) => client.close()));
    },
  };
}
