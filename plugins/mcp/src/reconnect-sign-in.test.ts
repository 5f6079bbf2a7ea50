import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryLogger, type WaitFor } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { WAIT, feedbackRecorder, mcpHost } from "./test-fixtures/harness.js";
import { useGuardedServer } from "./test-fixtures/guarded-server.js";

/**
 * A remote server behind OAuth that restarts while its grant is revoked: the reconnection nobody called
 * for needs the user, and asks through the host's waitFor like a start does (or says it needs a sign-in).
 */
describe("a reconnection that needs a sign-in", () => {
  const guarded = useGuardedServer("weft-oauth-reconnect-", { beforeAll, afterEach, afterAll });
  const { asked, browser } = guarded;

  const start = async (waitFor: WaitFor | undefined) => {
    const recorder = feedbackRecorder();
    const config = { mcpServers: { guarded: { url: guarded.server.url, auth: {} } } };
    const tokenStore = guarded.tokenStore();
    const kernel = await createTestKernel([recorder.plugin, [mcp, { config, tokenStore, reconnect: { initialDelayMs: 100, maxDelayMs: 200, attempts: 20 } }]], {
      logger: memoryLogger(),
      ...(waitFor ? { waitFor } : {}),
    });
    guarded.track(kernel);
    return { kernel, events: recorder.events };
  };

  it("asks the host's waitFor to sign in again, without a call, and is connected after it", async () => {
    const { kernel, events } = await start(browser);
    expect(asked).toHaveLength(1);
    guarded.server.issuer.revokeEverything();
    await guarded.server.restart();
    // The closed event stream is noticed and the server reconnected in the background: no tool is called.
    await vi.waitFor(() => expect(asked).toHaveLength(2), WAIT);
    expect(asked[1]).toMatchObject({ kind: "authorization", message: 'sign in to MCP server "guarded": open the link and authorize weft', callId: "mcp:guarded:sign-in" });
    await vi.waitFor(() => expect(mcpHost(kernel).status()[0]).toEqual({ name: "guarded", state: "connected", protocol: "2025-11-25", tools: 1 }), WAIT);
    const states = events.flatMap((event) => (event.type === "mcp.status" ? [event.state] : []));
    expect(states.slice(states.lastIndexOf("reconnecting"))).toEqual(["reconnecting", "connected"]);
    expect((await kernel.execute({ name: "guarded__whoami", arguments: {} })).output).toMatch(/^client \S+ with scopes \(none\)$/);
    expect(asked).toHaveLength(2);
  });

  it("says it needs a sign-in when no waitFor can answer, instead of trying again and again", async () => {
    // Signed in (the last test stored tokens): this host starts without asking, and cannot ask.
    const { kernel, events } = await start(undefined);
    expect(mcpHost(kernel).status()[0]?.state).toBe("connected");
    guarded.server.issuer.revokeEverything();
    await guarded.server.restart();
    await vi.waitFor(() => expect(mcpHost(kernel).status()[0]?.state).toBe("failed"), WAIT);
    expect(mcpHost(kernel).status()[0]).toEqual({
      name: "guarded",
      state: "failed",
      tools: 0,
      error: 'MCP server "guarded" needs you to sign in (OAuth): run "weft mcp login guarded", or give the toolkit a waitFor that answers "authorization" requests',
    });
    expect(kernel.tools.get("guarded__whoami")).toBeUndefined();
    expect(events).toContainEqual(expect.objectContaining({ type: "mcp.tools-changed", server: "guarded", removed: ["guarded__whoami"] }));
  });
});
