#!/usr/bin/env node
// An MCP server built on @modelcontextprotocol/server 2.x, in the era the flags choose:
//   --era=2026       serves the 2026-07-28 protocol (server/discover, per-request _meta, no sessions) and,
//                    like the SDK's serving entries do by default, the 2025 handshake to older clients
//   --era=2025       a 2025-11-25 server: the initialize handshake only (HTTP: with a session id)
//   --http=<port>    Streamable HTTP on 127.0.0.1:<port> (prints "listening <port>"); stdio otherwise
//   --tools-ttl=<ms> the ttlMs cache hint on tools/list (2026 only)
//   --log=<file>     appends one JSON line per answered question (what the server received)
//   --exit-on-probe  (2025, stdio) exits with code 3 when the first message is not `initialize`, as some
//                    2025-era servers do with the 2026-07-28 `server/discover` probe
// Tools: echo, era (which era this instance serves), hang (never answers; `hangs` says how many
// started and how many the client cancelled), confirm (asks "Deploy <target>?" with a form; 2026: an
// input_required result whose requestState carries the target, 2025: the SDK's elicitation/create), add-tool
// (publishes `extra` and says the list changed), add-tool-quietly (publishes `quiet` without a notification),
// touch-note (rewrites the resource test://note and says it was updated).
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { PassThrough } from "node:stream";
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  fromJsonSchema,
  inputRequired,
  inputResponse,
} from "@modelcontextprotocol/server";
import { StdioServerTransport, serveStdio } from "@modelcontextprotocol/server/stdio";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [name, value = "true"] = arg.replace(/^--/, "").split("=");
    return [name, value];
  }),
);
const era = flags.get("era") ?? "2026";
const httpPort = flags.has("http") ? Number(flags.get("http")) : undefined;
const ttl = flags.has("tools-ttl") ? Number(flags.get("tools-ttl")) : undefined;
const log = flags.get("log");

/** Tools published after start, shared by every instance (HTTP makes one per request). */
const added = new Set();
/** The instances serving now, told when the list changes (stdio: the one pinned to the connection). */
const live = new Set();
let notifyHttp = () => {};
let notifyNoteHttp = () => {};
let note = "first";
/** The hang calls received and those the client cancelled, on every instance. */
const hangs = { started: 0, cancelled: 0 };

const object = (properties, required = []) => fromJsonSchema({ type: "object", properties, required });
const text = (value) => ({ content: [{ type: "text", text: value }] });

/** One instance, for one connection (stdio) or one request (HTTP), serving `served` ("legacy" | "modern"). */
function build(served) {
  const options = { capabilities: { tools: { listChanged: true }, resources: { subscribe: true } } };
  if (era === "2025") options.supportedProtocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26"];
  if (ttl !== undefined) options.cacheHints = { "tools/list": { ttlMs: ttl, cacheScope: "private" } };
  const server = new McpServer({ name: `two-era-${era}`, version: "1.0.0" }, options);
  server.registerTool("echo", { description: "Echoes text", inputSchema: object({ text: { type: "string" } }, ["text"]) }, ({ text: value }) => text(value));
  server.registerTool("era", { description: "Which protocol era this server instance serves", inputSchema: object({}) }, () => text(served));
  server.registerTool("hang", { description: "Never answers", inputSchema: object({}) }, (_args, ctx) => {
    const { signal } = ctx.mcpReq;
    hangs.started++;
    // A cancel that arrived with the request has aborted the signal before this handler ran.
    if (signal.aborted) hangs.cancelled++;
    else signal.addEventListener("abort", () => hangs.cancelled++);
    return new Promise(() => {});
  });
  server.registerTool("hangs", { description: "How many hang calls started, and how many were cancelled", inputSchema: object({}) }, () => text(`${hangs.started} started, ${hangs.cancelled} cancelled`));
  server.registerTool(
    "confirm",
    { description: "Deploys after the user confirms", inputSchema: object({ target: { type: "string" } }, ["target"]) },
    async ({ target }, ctx) => {
      const answer = inputResponse(ctx.mcpReq.inputResponses, "confirm");
      if (answer.kind === "missing") {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({
              message: `Deploy ${target}?`,
              requestedSchema: { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] },
            }),
          },
          requestState: JSON.stringify({ target }),
        });
      }
      const state = ctx.mcpReq.requestState();
      if (log) appendFileSync(log, `${JSON.stringify({ served, pid: process.pid, answer, state })}\n`);
      if (answer.kind === "elicit" && answer.action === "accept" && answer.content?.ok === true) return text(`deployed ${target} (state ${state ?? "none"})`);
      return text(`not deployed: the user said ${answer.kind === "elicit" ? answer.action : answer.kind}`);
    },
  );
  server.registerTool("add-tool", { description: "Publishes the tool `extra`", inputSchema: object({}) }, () => {
    added.add("extra");
    for (const instance of live) registerAdded(instance);
    notifyHttp();
    return text("added extra");
  });
  server.registerTool("add-tool-quietly", { description: "Publishes the tool `quiet` without saying so", inputSchema: object({}) }, () => {
    added.add("quiet");
    quietly = true;
    for (const instance of live) registerAdded(instance);
    quietly = false;
    return text("added quiet");
  });
  server.registerResource("note", "test://note", { mimeType: "text/plain" }, () => ({ contents: [{ uri: "test://note", text: note }] }));
  server.registerTool("touch-note", { description: "Rewrites test://note", inputSchema: object({ text: { type: "string" } }, ["text"]) }, async ({ text: value }) => {
    note = value;
    for (const instance of live) await instance.server.sendResourceUpdated({ uri: "test://note" });
    notifyNoteHttp();
    return text(`note is ${value}`);
  });
  registerAdded(server);
  return server;
}

let quietly = false;
/** Registers the added tools an instance lacks; McpServer announces each (list_changed) unless told to be quiet. */
function registerAdded(server) {
  for (const name of added) {
    if (server.__registered?.has(name)) continue;
    server.__registered ??= new Set();
    server.__registered.add(name);
    if (quietly) {
      const send = server.sendToolListChanged;
      server.sendToolListChanged = () => {};
      server.registerTool(name, { description: `Added at run time (${name})`, inputSchema: object({}) }, () => text(name));
      server.sendToolListChanged = send;
    } else {
      server.registerTool(name, { description: `Added at run time (${name})`, inputSchema: object({}) }, () => text(name));
    }
  }
}

if (httpPort === undefined) {
  if (era === "2026") {
    serveStdio(({ era: served }) => {
      const server = build(served);
      live.add(server);
      return server;
    });
  } else {
    const server = build("legacy");
    live.add(server);
    await server.connect(new StdioServerTransport(flags.has("exit-on-probe") ? initializeFirst() : process.stdin, process.stdout));
  }
} else {
  const handle = era === "2026" ? modernHttp() : legacyHttp();
  const http = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const abort = new AbortController();
    res.on("close", () => abort.abort());
    const request = new Request(`http://127.0.0.1:${httpPort}${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, String(value)]])),
      body: req.method === "GET" || req.method === "HEAD" ? undefined : body,
      signal: abort.signal,
    });
    const response = await handle(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) {
      res.end();
      return;
    }
    for await (const chunk of response.body) res.write(chunk);
    res.end();
  });
  http.listen(httpPort, "127.0.0.1", () => process.stdout.write(`listening ${httpPort}\n`));
}

/** stdin, as long as the first message is `initialize`; any other first message ends the process. */
function initializeFirst() {
  const input = new PassThrough();
  let first = true;
  process.stdin.on("data", (chunk) => {
    if (first && !chunk.toString().includes('"initialize"')) process.exit(3);
    first = false;
    input.write(chunk);
  });
  process.stdin.on("end", () => input.end());
  return input;
}

/** The SDK's serving entry: 2026-07-28 per request, the 2025 handshake served statelessly to older clients. */
function modernHttp() {
  const handler = createMcpHandler(({ era: served }) => build(served));
  notifyHttp = () => handler.notify.toolsChanged();
  notifyNoteHttp = () => handler.notify.resourceUpdated("test://note");
  return (request) => handler.fetch(request);
}

/** A 2025-era server with sessions: one instance and transport per session id. */
function legacyHttp() {
  const sessions = new Map();
  return async (request) => {
    const id = request.headers.get("mcp-session-id");
    const known = id ? sessions.get(id) : undefined;
    if (known) return known.handleRequest(request);
    if (request.method !== "POST") return new Response("no session", { status: 400 });
    const message = await request.clone().json().catch(() => undefined);
    if (message?.method !== "initialize") return Response.json({ jsonrpc: "2.0", id: message?.id ?? null, error: { code: -32000, message: "Bad Request: No valid session ID provided" } }, { status: 400 });
    const server = build("legacy");
    live.add(server);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      onsessioninitialized: (session) => sessions.set(session, transport),
      onsessionclosed: (session) => {
        sessions.delete(session);
        live.delete(server);
      },
    });
    await server.connect(transport);
    return transport.handleRequest(request);
  };
}
