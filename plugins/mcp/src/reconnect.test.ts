import { once } from "node:events";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { FeedbackEvent, Kernel } from "@weft/sdk";
import { memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { WAIT, feedbackRecorder, mcpHost, startEverythingHttp } from "./test-fixtures/harness.js";

type Everything = Awaited<ReturnType<typeof startEverythingHttp>>;

/** Remote servers that go away and come back: server-everything over Streamable HTTP, killed and restarted on its port. */
describe("a Streamable HTTP server that restarts", () => {
  let server: Everything;
  let kernel: Kernel;
  let url: string;
  const recorder = feedbackRecorder();
  const sum = (a: number, b: number) => kernel.execute({ name: "remote__get-sum", arguments: { a, b } });
  const state = () => mcpHost(kernel).status()[0];

  beforeAll(async () => {
    server = await startEverythingHttp("streamableHttp");
    url = `http://127.0.0.1:${server.port}/mcp`;
    kernel = await createTestKernel(
      [recorder.plugin, [mcp, { config: { mcpServers: { remote: { url } } }, reconnect: { initialDelayMs: 200, maxDelayMs: 400, attempts: 50 } }]],
      { logger: memoryLogger() },
    );
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
    await server?.stop();
  });

  it("is used again through the same toolkit after a restart it did not see (the old session is refused)", async () => {
    expect((await sum(1, 2)).output).toBe("The sum of 1 and 2 is 3.");
    await server.stop();
    server = await startEverythingHttp("streamableHttp", server.port);
    // The first call after the restart is sent again over a new session, so it succeeds.
    await vi.waitFor(async () => expect((await sum(2, 3)).output).toBe("The sum of 2 and 3 is 5."), WAIT);
    expect(state()).toMatchObject({ name: "remote", state: "connected", tools: expect.any(Number) });
    expect(kernel.tools.get("remote__get-sum")).toBeDefined();
  }, 60_000);

  it("says `reconnecting` while it is down, fails calls at once with the cause, and reconnects when it is back", async () => {
    await server.stop();
    // The broken event stream is noticed without a call.
    await vi.waitFor(() => expect(state()?.state).toBe("reconnecting"), WAIT);
    expect(recorder.events).toContainEqual(expect.objectContaining({ type: "mcp.status", server: "remote", state: "reconnecting" }));
    // Its tools stay listed: the model may call them, and learns why they fail.
    expect(kernel.tools.get("remote__get-sum")).toBeDefined();
    const down = await sum(1, 1);
    expect(down.isError).toBe(true);
    expect(down.output).toMatch(
      new RegExp(`^MCP server "remote" cannot run get-sum: cannot reconnect \\(attempt \\d+: cannot reach ${url.replace(/[.]/g, "\\.")}: connection refused \\(is the server running\\?\\)\\); weft tries again on the next call$`),
    );

    server = await startEverythingHttp("streamableHttp", server.port);
    await vi.waitFor(async () => expect((await sum(4, 5)).output).toBe("The sum of 4 and 5 is 9."), WAIT);
    expect(state()?.state).toBe("connected");
  }, 60_000);

  it("fails a call whose server dies mid-call at once, with connection lost", async () => {
    let progressed!: () => void;
    const started = new Promise<void>((resolve) => (progressed = resolve));
    const running = kernel.execute(
      { name: "remote__trigger-long-running-operation", arguments: { duration: 60, steps: 60 } },
      { onProgress: () => progressed() },
    );
    await started;
    await server.stop();
    // The call's toolTimeout is 2 minutes: only noticing the broken stream ends it within this test's limit.
    const result = await running;
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^MCP server "remote": connection lost during trigger-long-running-operation \(cannot reach http:\/\/127\.0\.0\.1:\d+\/mcp: (connection refused \(is the server running\?\)|the connection was reset \(did the server stop\?\))\); weft reconnects on the next call$/);
    server = await startEverythingHttp("streamableHttp", server.port);
    await vi.waitFor(async () => expect((await sum(6, 7)).output).toBe("The sum of 6 and 7 is 13."), WAIT);
  }, 30_000);
});

describe("a remote server that stays away", () => {
  let server: Everything;
  let kernel: Kernel;
  const recorder = feedbackRecorder();

  beforeAll(async () => {
    server = await startEverythingHttp("streamableHttp");
    const config = { mcpServers: { remote: { url: `http://127.0.0.1:${server.port}/mcp` } } };
    kernel = await createTestKernel([recorder.plugin, [mcp, { config, reconnect: { initialDelayMs: 50, maxDelayMs: 100, attempts: 3 } }]], { logger: memoryLogger() });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
    await server?.stop();
  });

  it("turns `failed` with the reason once the attempts run out, and `start` reconnects it", async () => {
    const host = mcpHost(kernel);
    await server.stop();
    await vi.waitFor(() => expect(host.status()[0]?.state).toBe("failed"), WAIT);
    const status = host.status()[0];
    expect(status).toEqual({
      name: "remote",
      state: "failed",
      tools: 0,
      error: `lost its connection and could not reconnect (3 attempts; the last: cannot reach http://127.0.0.1:${server.port}/mcp: connection refused (is the server running?))`,
    });
    expect(kernel.tools.get("remote__get-sum")).toBeUndefined();
    const changes = recorder.events.filter((event): event is Extract<FeedbackEvent, { type: "mcp.tools-changed" }> => event.type === "mcp.tools-changed");
    expect(changes.at(-1)?.removed).toContain("remote__get-sum");

    server = await startEverythingHttp("streamableHttp", server.port);
    expect(await host.start("remote")).toMatchObject({ name: "remote", state: "connected" });
    expect((await kernel.execute({ name: "remote__get-sum", arguments: { a: 1, b: 1 } })).output).toBe("The sum of 1 and 1 is 2.");
  }, 60_000);

  it("ends its HTTP session with DELETE when it closes", async () => {
    await mcpHost(kernel).stop("remote");
    expect(server.output()).toMatch(/Received session termination request for session [0-9a-f-]{36}/);
  });
});

describe("a remote server that wants authorization", () => {
  it("fails the start with a reason that names what to add", async () => {
    const server = createServer((request, response) => {
      request.resume();
      response.writeHead(401, { "content-type": "application/json", "www-authenticate": 'Bearer realm="mcp"' }).end('{"error":"unauthorized"}');
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as { port: number };
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { locked: { url: `http://127.0.0.1:${port}/mcp` } } } }]], { logger: memoryLogger() });
    try {
      expect(mcpHost(kernel).status()[0]).toEqual({
        name: "locked",
        state: "failed",
        tools: 0,
        error: `the server at http://127.0.0.1:${port}/mcp refused the request without authorization (HTTP 401); add "auth": {} to its entry for OAuth, or give it a token in "headers" (for example "Authorization": "Bearer \${TOKEN}")`,
      });
    } finally {
      await kernel.close();
      server.close();
    }
  }, 30_000);
});
