import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the server received, body included. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/messages`. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON. */
  json(): any;
}

/** One scripted answer. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Written in order, each piece as its own write. */
  body?: string | Uint8Array | readonly (string | Uint8Array)[];
  /** After the body, keep the connection open until the client leaves (abort and idle tests). */
  hang?: boolean;
  /** After the body, destroy the socket: a connection that drops mid-reply. */
  destroy?: boolean;
  /** Never answer, not even with headers: a server that accepted the request and went quiet (with `destroy`: hung up). */
  silent?: boolean;
}

export type ScriptedReply = ScriptedResponse | ((request: RecordedRequest) => ScriptedResponse);

/** A real HTTP server on 127.0.0.1 that answers each request with the next queued reply. */
export interface ScriptedServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies; each request takes the next. With none queued the answer is a 418 naming the request. */
  reply(...replies: ScriptedReply[]): void;
  /**
   * Answers every `method path` request with `reply`, outside the queue and not in `requests` (they
   * go to `routed`): for what a provider asks on the side, such as a model's capabilities.
   */
  route(method: string, path: string, reply: ScriptedReply): void;
  /** The requests answered by a route. */
  readonly routed: RecordedRequest[];
  /** Resolves when the connection of request `index` (0-based) has closed, whoever closed it. */
  disconnected(index: number): Promise<void>;
  /** Closes the server and every connection still open. */
  close(): Promise<void>;
}

/**
 * Starts a scripted server, for testing an HTTP client (a provider plugin) against real sockets:
 *
 *   const server = await startScriptedServer();
 *   server.reply({ headers: { "content-type": "text/event-stream" }, body: sse });
 *   const model = provider.createModel({ provider: "x", model: "m", baseUrl: server.url });
 *   ...
 *   await server.close();
 */
export async function startScriptedServer(): Promise<ScriptedServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, ScriptedReply>();
  const routed: RecordedRequest[] = [];
  const closings: Promise<void>[] = [];
  const server = createServer((req, res) => {
    closings.push(new Promise((resolve) => res.once("close", () => resolve())));
    const pieces: Buffer[] = [];
    req.on("data", (piece: Buffer) => pieces.push(piece));
    req.on("end", () => {
      const body = Buffer.concat(pieces).toString("utf8");
      const recorded: RecordedRequest = {
        method: req.method ?? "GET",
        path: req.url ?? "/",
        headers: req.headers,
        body,
        json: () => JSON.parse(body),
      };
      const route = routes.get(`${recorded.method} ${recorded.path}`);
      if (route) {
        routed.push(recorded);
        void answer(res, typeof route === "function" ? route(recorded) : route);
        return;
      }
      requests.push(recorded);
      const next = queue.shift();
      const response = typeof next === "function" ? next(recorded) : next;
      void answer(res, response ?? unscripted(recorded));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    routed,
    reply: (...replies) => void queue.push(...replies),
    route: (method, path, reply) => void routes.set(`${method} ${path}`, reply),
    disconnected: async (index) => {
      while (closings[index] === undefined) await new Promise((resolve) => setImmediate(resolve));
      return closings[index];
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function unscripted(request: RecordedRequest): ScriptedResponse {
  return {
    status: 418,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ error: { type: "unscripted", message: `scripted server: no reply queued for ${request.method} ${request.path}` } }),
  };
}

async function answer(res: ServerResponse, response: ScriptedResponse): Promise<void> {
  if (response.silent) {
    if (response.destroy) res.destroy();
    return;
  }
  res.writeHead(response.status ?? 200, response.headers ?? {});
  res.flushHeaders();
  const body = response.body === undefined ? [] : typeof response.body === "string" || response.body instanceof Uint8Array ? [response.body] : response.body;
  for (const piece of body) {
    if (res.destroyed) return;
    // One write per piece, each allowed to reach the socket before the next.
    await new Promise<void>((resolve) => res.write(piece, () => resolve()));
  }
  if (response.destroy) res.destroy();
  else if (!response.hang) res.end();
}

type Hook = (fn: () => Promise<void>) => void;

/**
 * A scripted server started by `before` and closed by `after` (the runner's hooks: `beforeEach` and
 * `afterEach` for a fresh server per test, `beforeAll` and `afterAll` for one per file). The object
 * returned stands for the server of the moment, so a test file declares it once:
 *
 *   const server = useScriptedServer(beforeEach, afterEach);
 *   it("...", async () => { server.reply(...); ... server.url ... });
 *
 * `setup` runs on each new server (routes every test needs).
 */
export function useScriptedServer(before: Hook, after: Hook, setup?: (server: ScriptedServer) => void): ScriptedServer {
  let current: ScriptedServer | undefined;
  const server = () => {
    if (!current) throw new Error("the scripted server runs between the hooks given to useScriptedServer; use it inside a test");
    return current;
  };
  before(async () => {
    current = await startScriptedServer();
    setup?.(current);
  });
  after(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get url() {
      return server().url;
    },
    get requests() {
      return server().requests;
    },
    get routed() {
      return server().routed;
    },
    reply: (...replies) => server().reply(...replies),
    route: (method, path, reply) => server().route(method, path, reply),
    disconnected: (index) => server().disconnected(index),
    close: () => server().close(),
  };
}
