import { createServer as createHttpServer, type ServerResponse } from "node:http";
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
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

/** A real HTTP server on 127.0.0.1 whose one handler the test writes itself, for replies paced by the test. */
async function startPacedServer(handle: (res: ServerResponse) => void): Promise<{ url: string; close(): Promise<void> }> {
  const server = createHttpServer((_req, res) => handle(res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
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
    expect((error as Error).message).toMatch(/^test: the connection broke while the reply was streaming \(.+\); try again$/);
  });
});
