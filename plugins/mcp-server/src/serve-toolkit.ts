import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Disposer } from "@weft/sdk";
import { createToolkitServer, type ServedToolkit, type ToolkitServerOptions } from "./toolkit-server.js";

/** A toolkit whose kernel reports tool-list changes (a weft `Toolkit`). */
export interface ObservedToolkit extends ServedToolkit {
  readonly kernel: { tools: { onChange(listener: () => void): Disposer } };
}

export interface ServedHttp {
  /** `http://127.0.0.1:<port>/mcp` */
  readonly url: string;
  close(): Promise<void>;
}

export interface HttpServeOptions extends ToolkitServerOptions {
  /** 127.0.0.1 by default: a toolkit runs code, so it is not offered to the network unless asked. */
  host?: string;
  /** 0 (an ephemeral port) by default. */
  port?: number;
}

/**
 * Tells every live server of `toolkit` when its tool list changes, whatever changed it (an MCP server
 * reconnecting, a skill's tools, a plugin added at run time); `servers` are the ones to tell.
 */
function listChangeFanout(toolkit: ObservedToolkit): { servers: Set<{ toolsChanged(): void }>; stop: Disposer } {
  const servers = new Set<{ toolsChanged(): void }>();
  const stop = toolkit.kernel.tools.onChange(() => {
    for (const server of servers) server.toolsChanged();
  });
  return { servers, stop };
}

/** Serves the toolkit on stdin/stdout until the client closes the stream. */
export async function serveStdio(toolkit: ObservedToolkit, options: ToolkitServerOptions = {}): Promise<{ close(): Promise<void> }> {
  const { servers, stop } = listChangeFanout(toolkit);
  const server = createToolkitServer(toolkit, options);
  servers.add(server);
  await server.connect(new StdioServerTransport());
  return {
    close: async () => {
      stop();
      servers.delete(server);
      await server.close();
    },
  };
}

/** Serves the toolkit over Streamable HTTP at `/mcp`, one MCP session (and server) per client. */
export async function serveHttp(toolkit: ObservedToolkit, options: HttpServeOptions = {}): Promise<ServedHttp> {
  const { servers, stop } = listChangeFanout(toolkit);
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/mcp") return void response.writeHead(404).end("not found: the MCP endpoint is /mcp");
    const sessionId = request.headers["mcp-session-id"];
    const existing = typeof sessionId === "string" ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(request, response);
    const body = request.method === "POST" ? await readJson(request) : undefined;
    if (!isInitializeRequest(body)) {
      response.writeHead(400, { "content-type": "application/json" });
      return void response.end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32000, message: "no valid MCP session: initialize first" }, id: null }));
    }
    const server = createToolkitServer(toolkit, options);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void sessions.set(id, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
      servers.delete(server);
    };
    servers.add(server);
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  }

  const http = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once("error", reject);
    http.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve);
  });
  const address = http.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/mcp`,
    close: async () => {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      stop();
      servers.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** A bounded read of a request body as JSON; an unreadable body is undefined (and refused as no session). */
async function readJson(request: IncomingMessage, limit = 4 * 1024 * 1024): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}
