import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError, isAbortError } from "./errors.js";
import { providerFetch, type ProviderFetchOptions } from "./provider-fetch.js";
import { useScriptedServer } from "./testing/scripted-server.js";
import { defined } from "./testing/defined.js";

const fast: ProviderFetchOptions = { provider: "test", maxRetries: 3, baseDelayMs: 1, maxDelayMs: 20, idleTimeoutMs: 10_000 };
const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
  status,
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail("expected a rejection"),
    (error: unknown) => error,
  );
}

interface PacedServer {
  url: string;
  /** Every connection the server accepted, in order; `destroyed` once it has closed. */
  sockets: Socket[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 whose one handler the test writes itself, for replies paced by the test. */
function startPacedServer(handle: (res: ServerResponse, req: IncomingMessage) => void): Promise<PacedServer> {
  return listen(
    createHttpServer((req, res) => handle(res, req)),
    "http",
  );
}

async function listen(server: Server, protocol: "http" | "https"): Promise<PacedServer> {
  const sockets: Socket[] = [];
  server.on("connection", (socket: Socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `${protocol}://127.0.0.1:${port}`,
    sockets,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Answers each request with `{"n": <its number>}` once its body has arrived. */
function countingReplies(): (res: ServerResponse, req: IncomingMessage) => void {
  let n = 0;
  return (res, req) => {
    req.resume();
    req.once("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ n: ++n }));
    });
  };
}

const providerEntry = fileURLToPath(new URL("../dist/provider/index.js", import.meta.url));

/**
 * What a child process runs (a CLI's model calls): `times` requests to `url`, one after another;
 * then, when its event loop has nothing left to wait for (the moment Node would exit), one more.
 * It prints the replies as JSON. The server seeing all of them on one connection proves the
 * connection was still open, kept for reuse, when the process was free to exit.
 */
const CHILD_SCRIPT = `
import { providerFetch } from ${JSON.stringify(pathToFileURL(providerEntry).href)};
const [url, times] = process.argv.slice(1);
const replies = [];
const call = async (i) => replies.push(await (await providerFetch({ url, body: { i } }, { provider: "child", maxRetries: 0 })).json());
const report = (error) => console.log(JSON.stringify(error ? { error: error.message } : { replies }));
try {
  for (let i = 0; i < Number(times); i++) await call(i);
} catch (error) {
  report(error);
  process.exit();
}
let idle = false;
process.on("beforeExit", () => {
  if (idle) return;
  idle = true;
  call(times).then(() => report(), report);
});
`;

/** Runs CHILD_SCRIPT; resolves with what it printed and its exit code. */
async function runProviderChild(url: string, times: number, env: NodeJS.ProcessEnv): Promise<{ result: unknown; code: number | null }> {
  if (!existsSync(providerEntry)) throw new Error(`${providerEntry} is missing: build the sdk first (npm run build)`);
  const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD_SCRIPT, url, String(times)], { env, stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const lines: string[] = [];
  for await (const line of createInterface({ input: child.stdout })) lines.push(line);
  return { result: JSON.parse(defined(lines[0], "the child's output")), code: await exited };
}

/** The environment without the shell's extra CA bundle (it slows every node start), plus `extra`. */
function childEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const { NODE_EXTRA_CA_CERTS: _unused, ...env } = process.env;
  return { ...env, ...extra };
}

/** A port on 127.0.0.1 where nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("providerFetch", () => {
  const server = useScriptedServer(beforeEach, afterEach);

  it("POSTs JSON with the given headers and streams the body back", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: ["data: 1\n\n", "data: 2\n\n"] });
    const response = await providerFetch({ url: `${server.url}/v1/chat`, headers: { "x-api-key": "k" }, body: { hello: "world" } }, fast);
    expect(response.status).toBe(200);
    expect(response.retries).toBe(0);
    expect(await readAll(response.chunks())).toBe("data: 1\n\ndata: 2\n\n");
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat", body: '{"hello":"world"}' });
    expect(defined(request).headers["x-api-key"]).toBe("k");
    expect(defined(request).headers["content-type"]).toBe("application/json");
  });

  it("POSTs a body encoded beforehand as it is, as JSON with its length in bytes", async () => {
    server.reply(json(200, {}));
    await providerFetch({ url: `${server.url}/v1/chat`, bodyJson: '{"text":"é😀"}' }, fast);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", path: "/v1/chat", body: '{"text":"é😀"}' });
    expect(defined(request).headers["content-type"]).toBe("application/json");
    expect(defined(request).headers["content-length"]).toBe(String(Buffer.byteLength('{"text":"é😀"}')));
  });

  it("GETs when there is no body, and parses JSON", async () => {
    server.reply(json(200, { data: [1, 2] }));
    const response = await providerFetch({ url: `${server.url}/models` }, fast);
    expect(await response.json()).toEqual({ data: [1, 2] });
    expect(server.requests[0]).toMatchObject({ method: "GET", body: "" });
  });

  it("fails json() on a body that is not JSON with a ProviderError", async () => {
    server.reply({ headers: { "content-type": "application/json" }, body: "<html>oops</html>" });
    const response = await providerFetch({ url: `${server.url}/models` }, fast);
    await expect(response.json()).rejects.toThrow(/^test: malformed JSON in the response \(.+\): <html>oops<\/html>$/);
  });

  it("reads a whole reply with jsonObject(), and fails it with a ProviderError when the JSON is not an object", async () => {
    server.reply(json(200, { id: "msg_1" }), json(200, ["not", "a", "message"]));
    expect(await (await providerFetch({ url: server.url, body: {} }, fast)).jsonObject()).toEqual({ id: "msg_1" });
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    const error = await response.jsonObject().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ message: 'test: the response is JSON but not an object: ["not","a","message"]', retries: 0 });
  });

  it("retries a 429 after its Retry-After and reports the retries", async () => {
    server.reply(json(429, { error: { message: "slow down" } }, { "retry-after": "0.01" }), json(429, {}, { "retry-after": "0" }), json(200, { ok: true }));
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    expect(await response.json()).toEqual({ ok: true });
    expect(response.retries).toBe(2);
    expect(server.requests).toHaveLength(3);
  });

  it("fails at once when Retry-After asks for longer than maxRetryAfterMs, naming the wait", async () => {
    server.reply(json(429, { error: { type: "rate_limit_error", message: "slow down" } }, { "retry-after": "120" }));
    const error = (await rejection(providerFetch({ url: server.url, body: {} }, fast))) as Error;
    expect(error.message).toBe(
      "test: HTTP 429 rate_limit_error: slow down; the provider asked to wait 120 s before retrying, longer than maxRetryAfterMs (60 s); try again later, or raise maxRetryAfterMs",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("retries 408, 409 and 524", async () => {
    server.reply(json(408, {}), json(409, {}), json(524, {}), json(200, { ok: true }));
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    expect(response.retries).toBe(3);
  });

  it("fails an HTTP 200 HTML page, saying what came back, and names the page of a 502", async () => {
    const page = "<!DOCTYPE html><html><head><title>Sign in to the Wi-Fi</title></head><body>...</body></html>";
    server.reply({ status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: page });
    expect(((await rejection(providerFetch({ url: server.url, body: {} }, fast))) as Error).message).toBe(
      'test: HTTP 200 with an HTML page titled "Sign in to the Wi-Fi" instead of the API\'s answer; check baseUrl (a proxy or login page may be answering)',
    );
    const gateway = "<html>\n<head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center></body></html>";
    server.reply(...Array.from({ length: 4 }, () => ({ status: 502, headers: { "content-type": "text/html" }, body: gateway })));
    expect(((await rejection(providerFetch({ url: server.url, body: {} }, fast))) as Error).message).toBe(
      'test: HTTP 502 an HTML page titled "502 Bad Gateway" instead of the API\'s answer (after 3 retries); the provider is failing or overloaded; try again later',
    );
  });

  it("retries 500, 502, 503, 504 and 529, then gives up with the last error", async () => {
    server.reply(json(500, {}), json(502, {}), json(504, {}), json(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }));
    const error = await rejection(providerFetch({ url: server.url, body: {} }, fast));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: 529, retries: 3, providerType: "overloaded_error", providerMessage: "Overloaded" });
    expect((error as Error).message).toBe("test: HTTP 529 overloaded_error: Overloaded (after 3 retries); the provider is failing or overloaded; try again later");
    expect(server.requests).toHaveLength(4);
  });

  it("fails other 4xx at once with the provider's message", async () => {
    server.reply(json(400, { error: { type: "invalid_request_error", message: "max_tokens: too big" } }), json(200, {}));
    const error = await rejection(providerFetch({ url: server.url, body: {} }, fast));
    expect(error).toMatchObject({ status: 400, retries: 0, providerMessage: "max_tokens: too big", providerType: "invalid_request_error" });
    expect(server.requests).toHaveLength(1);
  });

  it("says which key to check on a 401", async () => {
    server.reply(json(401, { error: { type: "authentication_error", message: "invalid x-api-key" } }));
    const error = await rejection(providerFetch({ url: server.url, body: {} }, { ...fast, credentialHint: "check ANTHROPIC_API_KEY" }));
    expect((error as Error).message).toBe("test: HTTP 401 authentication_error: invalid x-api-key; check ANTHROPIC_API_KEY");
  });

  it("retries network errors and then fails naming the URL", async () => {
    const url = `http://127.0.0.1:${await deadPort()}/v1/messages`;
    const error = await rejection(providerFetch({ url, body: {} }, { ...fast, maxRetries: 2 }));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ status: undefined, retries: 2 });
    expect((error as Error).message).toMatch(new RegExp(`^test: request to ${url} failed: .*ECONNREFUSED.* \\(after 2 retries\\); check baseUrl and that the server is reachable$`));
  });

  it("retries a connection that drops before answering", async () => {
    server.reply({ silent: true, destroy: true }, json(200, { ok: 1 }));
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    expect(await response.json()).toEqual({ ok: 1 });
    expect(response.retries).toBe(1);
  });

  it("fails with an idle timeout when the body stops flowing, and closes the connection", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: ["data: first\n\n"], hang: true });
    const response = await providerFetch({ url: server.url, body: {} }, { ...fast, maxRetries: 0, idleTimeoutMs: 300 });
    const seen: string[] = [];
    const error = await rejection(
      (async () => {
        for await (const chunk of response.chunks()) seen.push(new TextDecoder().decode(chunk));
      })(),
    );
    expect(seen).toEqual(["data: first\n\n"]);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("test: no data from the provider for 300 ms, so the request was dropped; try again, or raise idleTimeoutMs if the model is slow to start");
    await server.disconnected(0);
  });

  it("counts a silent server as an idle timeout and retries it", async () => {
    server.reply({ silent: true }, { silent: true });
    const error = await rejection(providerFetch({ url: server.url, body: {} }, { ...fast, maxRetries: 1, idleTimeoutMs: 50 }));
    expect(error).toMatchObject({ code: "PROVIDER_ERROR", retries: 1 });
    expect((error as Error).message).toMatch(/^test: no data from the provider for 50 ms/);
    expect(server.requests).toHaveLength(2);
  });

  it("does not count the consumer's own time as idle", async () => {
    server.reply({ headers: { "content-type": "text/plain" }, body: ["a", "b"] });
    const response = await providerFetch({ url: server.url, body: {} }, { ...fast, idleTimeoutMs: 300 });
    let text = "";
    for await (const chunk of response.chunks()) {
      text += new TextDecoder().decode(chunk);
      await new Promise((resolve) => setTimeout(resolve, 450)); // a slow consumer, not a slow server
    }
    expect(text).toBe("ab");
  });

  it("ends the request at once when aborted mid-body, with the abort reason", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: ["data: first\n\n"], hang: true });
    const controller = new AbortController();
    const response = await providerFetch({ url: server.url, body: {}, signal: controller.signal }, fast);
    const error = await rejection(
      (async () => {
        for await (const _ of response.chunks()) controller.abort();
      })(),
    );
    expect(isAbortError(error)).toBe(true);
    await server.disconnected(0);
  });

  it("stops waiting to retry when aborted", async () => {
    server.reply(json(503, {}, { "retry-after": "3600" }));
    const controller = new AbortController();
    const pending = providerFetch({ url: server.url, body: {}, signal: controller.signal }, { ...fast, maxDelayMs: 3_600_000 });
    await server.disconnected(0);
    controller.abort(new Error("user gave up"));
    await expect(pending).rejects.toThrow("user gave up");
    expect(server.requests).toHaveLength(1);
  });

  it("closes the connection when the consumer stops reading early", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: ["data: first\n\n"], hang: true });
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    for await (const _ of response.chunks()) break;
    await server.disconnected(0);
  });

  it("lets a body that ends just after the consumer stopped finish, instead of cutting the connection", async () => {
    let answered!: (res: ServerResponse) => void;
    const first = new Promise<ServerResponse>((resolve) => (answered = resolve));
    let requests = 0;
    const paced = await startPacedServer((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (++requests > 1) return void res.end("data: second\n\n");
      res.write("data: [DONE]\n\n");
      answered(res);
    });
    try {
      const response = await providerFetch({ url: paced.url, body: {} }, fast);
      const res = await first;
      const socket = defined(res.socket ?? undefined, "the response's socket");
      for await (const _ of response.chunks()) break; // the consumer stops at the last event...
      res.end(); // ...and the body's end comes a moment later
      // A whole round trip later, a cut connection would long have reached the server as closed.
      const next = await providerFetch({ url: paced.url, body: {} }, fast);
      expect(await readAll(next.chunks())).toBe("data: second\n\n");
      expect(res.writableFinished).toBe(true);
      expect(socket.destroyed).toBe(false);
    } finally {
      await paced.close();
    }
  });

  it("holds a fast server back while its consumer does not read, instead of reading the body ahead into memory", async () => {
    const CHUNK = Buffer.alloc(64 * 1024, 120);
    let written = 0;
    const paced = await startPacedServer((res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      // Writes as fast as the connection takes it: 64 MB if nothing held it back.
      const pump = () => {
        while (written < 1024) {
          written++;
          if (!res.write(CHUNK)) return void res.once("drain", pump);
        }
        res.end();
      };
      pump();
    });
    try {
      const response = await providerFetch({ url: paced.url, body: {} }, { ...fast, maxRetries: 0 });
      const chunks = response.chunks();
      await chunks.next();
      await new Promise((resolve) => setTimeout(resolve, 300)); // a consumer busy with its first chunk
      // What the server got out is what the client read ahead (at most 16 socket reads of 64 KB) plus the
      // kernel's socket buffers: a few MB, never the whole body.
      expect(written * CHUNK.length).toBeLessThan(16 * 1024 * 1024);
      await chunks.return(undefined);
    } finally {
      await paced.close();
    }
  });

  it("does not drop a body that keeps trickling in, each chunk within the idle timeout", async () => {
    const paced = await startPacedServer((res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      let sent = 0;
      const timer = setInterval(() => {
        res.write(String(sent++));
        if (sent === 6) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
      res.once("close", () => clearInterval(timer));
    });
    try {
      // Six chunks 100 ms apart: twice the idle timeout in all, never more than a third of it between bytes.
      const response = await providerFetch({ url: paced.url, body: {} }, { ...fast, maxRetries: 0, idleTimeoutMs: 300 });
      expect(await readAll(response.chunks())).toBe("012345");
    } finally {
      await paced.close();
    }
  });

  it("fails a reply whose connection breaks mid-body", async () => {
    server.reply({ headers: { "content-type": "text/event-stream" }, body: ["data: first\n\n"], destroy: true });
    const response = await providerFetch({ url: server.url, body: {} }, fast);
    const error = await rejection(readAll(response.chunks()));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as Error).message).toBe("test: the connection broke while the reply was streaming (closed before the reply ended); try again");
  });
});

describe("providerFetch's requests", () => {
  const server = useScriptedServer(beforeEach, afterEach);

  it("sends the JSON body with its content-length in bytes", async () => {
    server.reply(json(200, {}));
    await (await providerFetch({ url: server.url, body: { text: "héllo ☃" } }, fast)).json();
    const request = defined(server.requests[0]);
    expect(request.body).toBe('{"text":"héllo ☃"}');
    expect(request.headers["content-length"]).toBe(String(Buffer.byteLength(request.body)));
  });

  it("says it is weft in user-agent, unless the request names its own", async () => {
    server.reply(json(200, {}), json(200, {}));
    await (await providerFetch({ url: server.url }, fast)).json();
    await (await providerFetch({ url: server.url, headers: { "User-Agent": "my-app/1.0" } }, fast)).json();
    expect(server.requests.map((request) => request.headers["user-agent"])).toEqual(["weft", "my-app/1.0"]);
  });

  it("reads the response's headers by any case, a repeated one joined", async () => {
    const paced = await startPacedServer((res) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("x-request-id", "req_1");
      res.setHeader("x-ratelimit-note", ["a", "b"]);
      res.end("{}");
    });
    try {
      const response = await providerFetch({ url: paced.url, body: {} }, fast);
      await response.json();
      expect(response.headers.get("X-Request-Id")).toBe("req_1");
      expect(response.headers.get("x-ratelimit-note")).toBe("a, b");
      expect(response.headers.get("x-absent")).toBeNull();
      expect([response.headers.has("Content-Type"), response.headers.has("x-absent")]).toEqual([true, false]);
    } finally {
      await paced.close();
    }
  });

  it("sends nothing when the signal was aborted before the call", async () => {
    const controller = new AbortController();
    controller.abort(new Error("user gave up"));
    await expect(providerFetch({ url: server.url, body: {}, signal: controller.signal }, fast)).rejects.toThrow("user gave up");
    server.reply(json(200, { ok: true }));
    await (await providerFetch({ url: server.url, body: {} }, fast)).json();
    expect(server.requests).toHaveLength(1);
  });

  it("stops waiting for the headers when aborted, and closes the connection", async () => {
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    const paced = await startPacedServer(() => arrived()); // never answers
    try {
      const controller = new AbortController();
      const pending = providerFetch({ url: paced.url, body: {}, signal: controller.signal }, fast);
      await requestArrived;
      const socket = defined(paced.sockets[0], "the request's connection");
      const closed = new Promise((resolve) => socket.once("close", resolve));
      controller.abort(new Error("user gave up"));
      await expect(pending).rejects.toThrow("user gave up");
      await closed;
    } finally {
      await paced.close();
    }
  });

  it("fails a redirect without following it, naming where it points", async () => {
    let requests = 0;
    const paced = await startPacedServer((res) => {
      res.writeHead(307, { location: ++requests === 1 ? "/v2/chat/completions" : "http://[unreadable" });
      res.end();
    });
    try {
      const error = await rejection(providerFetch({ url: `${paced.url}/v1/chat/completions`, body: {} }, fast));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ status: 307, retries: 0 });
      expect((error as Error).message).toBe(
        `test: HTTP 307 redirect to ${paced.url}/v2/chat/completions; set baseUrl to the address the API answers at (provider requests do not follow redirects)`,
      );
      expect(requests).toBe(1);
      // A Location that is no URL is named as it came.
      expect(((await rejection(providerFetch({ url: paced.url, body: {} }, fast))) as Error).message).toMatch(/^test: HTTP 307 redirect to http:\/\/\[unreadable; /);
    } finally {
      await paced.close();
    }
  });

  it("fails at once on a URL that is not http(s)", async () => {
    expect(((await rejection(providerFetch({ url: "ftp://example.com/v1", body: {} }, fast))) as Error).message).toBe(
      "test: request to ftp://example.com/v1 failed: the protocol ftp: is not http: or https:; check baseUrl and that the server is reachable",
    );
    expect(((await rejection(providerFetch({ url: "localhost:11434/api/chat", body: {} }, fast))) as Error).message).toBe(
      "test: request to localhost:11434/api/chat failed: the protocol localhost: is not http: or https:; check baseUrl and that the server is reachable",
    );
    expect(((await rejection(providerFetch({ url: "/v1/messages", body: {} }, fast))) as Error).message).toBe(
      "test: request to /v1/messages failed: Invalid URL; check baseUrl and that the server is reachable",
    );
  });
});

describe("providerFetch's connections", () => {
  let server: PacedServer;
  beforeEach(async () => {
    server = await startPacedServer(countingReplies());
  });
  afterEach(() => server.close());

  it("reuses one kept-alive connection for requests one after another", async () => {
    const replies = [];
    for (let i = 0; i < 3; i++) replies.push(await (await providerFetch({ url: server.url, body: { i } }, fast)).json());
    replies.push(JSON.parse(await readAll((await providerFetch({ url: server.url, body: {} }, fast)).chunks())));
    expect(replies).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
    expect(server.sockets).toHaveLength(1);
  });

  it("sends a request again on a new connection when the server hung up the kept-alive one as it was reused", async () => {
    let served = 0;
    const paced = await startPacedServer((res, req) => {
      req.resume();
      // The first connection's second request finds the server gone, as when its idle timeout ends just then.
      if (req.socket === paced.sockets[0] && served++ > 0) return void req.socket.destroy();
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ served }));
    });
    try {
      const once = { ...fast, maxRetries: 0 };
      expect(await (await providerFetch({ url: paced.url, body: {} }, once)).json()).toEqual({ served: 1 });
      const again = await providerFetch({ url: paced.url, body: {} }, once);
      expect(await again.json()).toEqual({ served: 2 });
      expect(again.retries).toBe(0);
      expect(paced.sockets).toHaveLength(2);
    } finally {
      await paced.close();
    }
  });

  it("lets a process exit while its connection idles in the pool", async () => {
    const run = await runProviderChild(`${server.url}/v1/chat`, 2, childEnv());
    expect(run).toEqual({ result: { replies: [{ n: 1 }, { n: 2 }, { n: 3 }] }, code: 0 });
    // The third request, sent when Node had nothing left to wait for, found the connection still open.
    expect(server.sockets).toHaveLength(1);
  });
});

describe("providerFetch's connection after an abort mid-body", () => {
  it("destroys the aborted connection and opens a new one for the next request", async () => {
    let requests = 0;
    const paced = await startPacedServer((res, req) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (++requests === 1) res.write("data: first\n\n"); // and hangs
      else res.end("data: second\n\n");
    });
    try {
      const controller = new AbortController();
      const response = await providerFetch({ url: paced.url, body: {}, signal: controller.signal }, fast);
      const socket = defined(paced.sockets[0], "the first connection");
      const closed = new Promise((resolve) => socket.once("close", resolve));
      const error = await rejection(
        (async () => {
          for await (const _ of response.chunks()) controller.abort();
        })(),
      );
      expect(isAbortError(error)).toBe(true);
      await closed;
      expect(await readAll((await providerFetch({ url: paced.url, body: {} }, fast)).chunks())).toBe("data: second\n\n");
      expect(paced.sockets).toHaveLength(2);
    } finally {
      await paced.close();
    }
  });

  it("leaves the next request on a reused connection alone when a finished request's signal aborts", async () => {
    let requests = 0;
    let answerSecond: (() => void) | undefined;
    const paced = await startPacedServer((res, req) => {
      req.resume();
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (++requests === 1) res.end("data: first\n\n");
      else answerSecond = () => res.end("data: second\n\n");
    });
    try {
      const controller = new AbortController();
      const first = await providerFetch({ url: paced.url, body: {}, signal: controller.signal }, fast);
      expect(await readAll(first.chunks())).toBe("data: first\n\n");
      const second = providerFetch({ url: paced.url, body: {} }, fast);
      while (!answerSecond) await new Promise((resolve) => setImmediate(resolve));
      // The second request waits on the first one's kept-alive socket; the first's signal must not reach it.
      expect(paced.sockets).toHaveLength(1);
      controller.abort(new Error("the first caller gave up late"));
      answerSecond();
      expect(await readAll((await second).chunks())).toBe("data: second\n\n");
      expect(paced.sockets).toHaveLength(1);
    } finally {
      await paced.close();
    }
  });
});

describe("providerFetch over https", () => {
  let folder: string;
  let certFile: string;
  let server: PacedServer;
  beforeAll(async () => {
    // A self-signed certificate for 127.0.0.1, made with Debian's openssl for this run only.
    folder = mkdtempSync(join(tmpdir(), "weft-https-"));
    certFile = join(folder, "cert.pem");
    const keyFile = join(folder, "key.pem");
    execFileSync("openssl", [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-subj",
      "/CN=127.0.0.1",
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ], { stdio: "ignore" });
    const tls = { key: readFileSync(keyFile), cert: readFileSync(certFile) };
    const reply = countingReplies();
    server = await listen(
      createHttpsServer(tls, (req, res) => reply(res, req)),
      "https",
    );
  });
  afterAll(async () => {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("trusts the CA a user gives in NODE_EXTRA_CA_CERTS, and keeps the connection alive", async () => {
    const run = await runProviderChild(`${server.url}/v1/messages`, 2, childEnv({ NODE_EXTRA_CA_CERTS: certFile }));
    expect(run).toEqual({ result: { replies: [{ n: 1 }, { n: 2 }, { n: 3 }] }, code: 0 });
    expect(server.sockets).toHaveLength(1);
  });

  it("refuses a certificate no trusted CA signed, naming why", async () => {
    const error = await rejection(providerFetch({ url: `${server.url}/v1/messages`, body: {} }, { ...fast, maxRetries: 0 }));
    expect((error as Error).message).toBe(`test: request to ${server.url}/v1/messages failed: self-signed certificate; check baseUrl and that the server is reachable`);
  });
});
