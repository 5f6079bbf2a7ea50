import { readFile, stat } from "node:fs/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Kernel, PendingAnswer, Suspension, WaitFor } from "@weft/sdk";
import { memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { mcpHost } from "./test-fixtures/harness.js";
import { useGuardedServer } from "./test-fixtures/guarded-server.js";

/**
 * OAuth against a real authorization server (the MCP SDK's server-side auth: discovery metadata, dynamic
 * registration, PKCE-checked codes, refresh) guarding a real MCP server, both on 127.0.0.1.
 */
describe("a remote server behind OAuth", () => {
  const guarded = useGuardedServer("weft-oauth-", { beforeAll, afterEach, afterAll });
  const { asked, browser } = guarded;

  const start = async (waitFor: WaitFor | undefined, auth: Record<string, unknown> = {}, timeout?: number) => {
    const config = { mcpServers: { guarded: { url: guarded.server.url, auth, ...(timeout ? { timeout } : {}) } } };
    const kernel = await createTestKernel([[mcp, { config, tokenStore: guarded.tokenStore() }]], {
      logger: memoryLogger(),
      ...(waitFor ? { waitFor } : {}),
    });
    guarded.track(kernel);
    return kernel;
  };
  const whoami = (kernel: Kernel) => kernel.execute({ name: "guarded__whoami", arguments: {} });

  it("signs in through the host's waitFor (discovery, registration, PKCE, resource indicator) and keeps the tokens in a 0600 file", async () => {
    const kernel = await start(browser, { scopes: ["mcp:tools"] });
    expect(mcpHost(kernel).status()[0]).toMatchObject({ name: "guarded", state: "connected", tools: 1 });
    const [client] = guarded.server.issuer.log.registrations;
    expect((await whoami(kernel)).output).toBe(`client ${client?.client_id} with scopes mcp:tools`);

    expect(asked).toHaveLength(1);
    const [suspension] = asked;
    expect(suspension).toMatchObject({ kind: "authorization", message: 'sign in to MCP server "guarded": open the link and authorize weft', callId: "mcp:guarded:sign-in" });
    const redirectUri = (suspension?.data as { redirectUri?: string } | undefined)?.redirectUri;
    expect(redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(client).toMatchObject({ client_name: "weft", redirect_uris: [redirectUri], token_endpoint_auth_method: "none", grant_types: ["authorization_code", "refresh_token"] });
    const [authorization] = guarded.server.issuer.log.authorizations;
    expect(authorization?.resource?.href).toBe(guarded.server.url);
    expect(authorization?.scopes).toEqual(["mcp:tools"]);
    expect(authorization?.redirectUri).toBe(redirectUri);

    const file = guarded.tokenFile;
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, "utf8"))[guarded.server.url];
    expect(stored).toMatchObject({ client: { client_id: client?.client_id }, redirectUri, tokens: { token_type: "bearer", refresh_token: expect.any(String) } });
  });

  it("uses the stored tokens next time without asking, and refreshes them when they expire", async () => {
    const kernel = await start(browser, { scopes: ["mcp:tools"] });
    expect(mcpHost(kernel).status()[0]?.state).toBe("connected");
    expect(asked).toEqual([]);

    guarded.server.issuer.expireAccessTokens();
    const grants = guarded.server.issuer.log.grants.length;
    expect((await whoami(kernel)).output).toMatch(/^client \S+ with scopes mcp:tools$/);
    expect(guarded.server.issuer.log.grants.slice(grants)).toEqual(["refresh_token"]);
    expect(asked).toEqual([]);
  });

  it("asks again during a call when the grant is gone, and runs the call after the sign-in", async () => {
    const kernel = await start(browser, { scopes: ["mcp:tools"] });
    guarded.server.issuer.revokeEverything();
    const result = await whoami(kernel);
    expect(result.output).toMatch(/^client \S+ with scopes mcp:tools$/);
    expect(asked.map((suspension) => [suspension.kind, suspension.toolName])).toEqual([["authorization", "whoami"]]);
  });

  it("takes the code from the host's answer when the browser cannot reach weft's listener", async () => {
    guarded.server.issuer.revokeEverything();
    await mcpHost(await start(browser)).status();
    const elsewhere: WaitFor = async (suspension): Promise<PendingAnswer> => {
      asked.push(suspension);
      const page = await fetch(suspension.url ?? "", { redirect: "manual" });
      return { action: "accept", content: { url: page.headers.get("location") } };
    };
    const kernel = await start(elsewhere);
    await mcpHost(kernel).signOut("guarded");
    expect(await mcpHost(kernel).signOut("guarded")).toBe(false);
    expect((await mcpHost(kernel).start("guarded")).state).toBe("connected");
    expect(asked.at(-1)?.kind).toBe("authorization");
  });

  it("waits for a sign-in longer than the server's connect timeout: the user's time is not the server's", async () => {
    await mcpHost(await start(browser)).signOut("guarded");
    const slowUser: WaitFor = async (suspension, signal) => {
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      return browser(suspension, signal);
    };
    const kernel = await start(slowUser, {}, 5_000);
    expect(mcpHost(kernel).status()[0]).toMatchObject({ state: "connected", tools: 1 });
    // A late "no" is reported as the user's answer, not as the server's timeout.
    await mcpHost(kernel).signOut("guarded");
    const slowNo: WaitFor = async () => {
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      return { action: "decline" };
    };
    expect(mcpHost(await start(slowNo, {}, 5_000)).status()[0]?.error).toBe('the sign-in to MCP server "guarded" was declined');
  }, 60_000);

  it("keeps a sign-in in progress in the store until it expires: a stale redirect is refused and dropped", async () => {
    await mcpHost(await start(browser)).signOut("guarded");
    const store = guarded.tokenStore();
    const config = (enabled: boolean) => ({ mcpServers: { guarded: { url: guarded.server.url, auth: {}, enabled } } });
    // A host that shows the link and gives up at once; its sign-ins may wait 1 ms for their redirect.
    const shown: Suspension[] = [];
    const impatient = await createTestKernel([[mcp, { config: config(true), tokenStore: store, elicitationTimeoutMs: 1 }]], {
      logger: memoryLogger(),
      waitFor: async (suspension) => {
        shown.push(suspension);
        return { action: "cancel" };
      },
    });
    guarded.track(impatient);
    const redirect = (await fetch(shown[0]?.url ?? "", { redirect: "manual" })).headers.get("location") ?? "";
    const state = new URL(redirect).searchParams.get("state") ?? "";
    expect(Object.keys((await store.get(guarded.server.url))?.signIns ?? {})).toEqual([state]);

    const grants = guarded.server.issuer.log.grants.length;
    const later = await createTestKernel([[mcp, { config: config(false), tokenStore: store }]], { logger: memoryLogger() });
    guarded.track(later);
    await expect(mcpHost(later).finishSignIn("guarded", redirect)).rejects.toThrow('the sign-in to MCP server "guarded" expired before its redirect came back; sign in again');
    expect((await store.get(guarded.server.url))?.signIns).toBeUndefined();
    // The code never went to the token endpoint.
    expect(guarded.server.issuer.log.grants.length).toBe(grants);
  });

  it("finishes a sign-in from its redirect in a host that did not start it, and refuses a redirect of no sign-in in progress", async () => {
    await mcpHost(await start(browser)).signOut("guarded");
    const shown: Suspension[] = [];
    const first = await start(async (suspension) => {
      shown.push(suspension);
      return { action: "cancel" };
    });
    expect(mcpHost(first).status()[0]?.state).toBe("failed");
    const redirect = (await fetch(shown[0]?.url ?? "", { redirect: "manual" })).headers.get("location") ?? "";
    const { searchParams } = new URL(redirect);
    const code = searchParams.get("code") ?? "";
    const other = await start(undefined);
    await expect(mcpHost(other).finishSignIn("guarded", { code, state: "not-one-weft-sent" })).rejects.toThrow(
      'no sign-in to MCP server "guarded" with this state is in progress (it was finished already, or belongs to another server); sign in again',
    );
    expect(await mcpHost(other).finishSignIn("guarded", { code, state: searchParams.get("state") ?? "" })).toMatchObject({ name: "guarded", state: "connected", tools: 1 });
    expect((await whoami(other)).output).toMatch(/^client \S+ with scopes \(none\)$/);
  });

  it("fails the start with what to do when the host cannot ask, or the user declines", async () => {
    await mcpHost(await start(browser)).signOut("guarded");
    const unasked = await start(undefined);
    expect(mcpHost(unasked).status()[0]).toEqual({
      name: "guarded",
      state: "failed",
      tools: 0,
      error: 'MCP server "guarded" needs you to sign in (OAuth): run "weft mcp login guarded", or give the toolkit a waitFor that answers "authorization" requests',
    });
    const declined = await start(async () => ({ action: "decline" }));
    expect(mcpHost(declined).status()[0]?.error).toBe('the sign-in to MCP server "guarded" was declined');
    // Neither link will be opened: no sign-in stays in the store for another process to finish.
    expect((await guarded.tokenStore().get(guarded.server.url))?.signIns).toBeUndefined();
  });
});
