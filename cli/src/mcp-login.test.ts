import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEFT_BIN, weft } from "./test-fixtures/weft-process.js";

/** The MCP plugin's OAuth test servers (outside this package's sources, so loaded by path). */
interface ProtectedMcp {
  url: string;
  close(): Promise<void>;
}
const fixtures = new URL("../../plugins/mcp/src/test-fixtures/oauth-servers.ts", import.meta.url).href;
const { startProtectedMcp } = (await import(fixtures)) as { startProtectedMcp(): Promise<ProtectedMcp> };

/** `weft mcp login|logout` against a real OAuth authorization server guarding a real MCP server on 127.0.0.1. */
describe("weft mcp login / logout", () => {
  let project: string;
  let protectedMcp: ProtectedMcp;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    protectedMcp = await startProtectedMcp();
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-mcp-login-")));
    env = { WEFT_CONFIG_DIR: path.join(project, "config") };
    await writeFile(path.join(project, "mcp.json"), JSON.stringify({ mcpServers: { guarded: { url: protectedMcp.url, auth: {} } } }));
    await writeFile(path.join(project, "weft.config.yaml"), "mcp: ./mcp.json\n");
  });
  afterAll(async () => {
    await protectedMcp?.close();
    if (project) await rm(project, { recursive: true, force: true });
  });

  it("prints the sign-in link, takes the browser's redirect, and stores the tokens for later commands", async () => {
    const child = spawn(process.execPath, [WEFT_BIN, "mcp", "login", "guarded"], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    // The user's browser: it opens the printed link, whose redirect reaches weft's loopback listener.
    const link = await new Promise<string>((resolve, reject) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      child.once("exit", () => reject(new Error(`weft exited without a sign-in link: ${stderr}`)));
    });
    expect(stderr).toContain('sign in to MCP server "guarded": open this link in a browser\n');
    await fetch(link, { redirect: "follow" });
    expect(await exited).toBe(0);
    expect(stdout).toBe("signed in to guarded (1 tools)\n");
    expect((await stat(path.join(project, "config/mcp-tokens.json"))).mode & 0o777).toBe(0o600);

    expect(await weft(project, ["call", "guarded__whoami", "{}"], env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^client \S+ with scopes \(none\)\n$/) });
  }, 60_000);

  it("finishes in a second process a sign-in the first one started and did not live to finish (the PKCE verifier is in the store)", async () => {
    await weft(project, ["mcp", "logout", "guarded"], env);
    const first = spawn(process.execPath, [WEFT_BIN, "mcp", "login", "guarded"], {
      cwd: project,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR, ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    const exited = new Promise((resolve) => first.once("exit", resolve));
    let stderr = "";
    const link = await new Promise<string>((resolve, reject) => {
      first.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /^(http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+)$/m.exec(stderr);
        if (match?.[1]) resolve(match[1]);
      });
      first.once("exit", () => reject(new Error(`weft exited without a sign-in link: ${stderr}`)));
    });
    // The first process dies before the browser comes back; the redirect reaches no listener.
    first.kill("SIGKILL");
    await exited;
    const redirect = (await fetch(link, { redirect: "manual" })).headers.get("location") ?? "";
    const state = new URL(redirect).searchParams.get("state") ?? "";
    const storeFile = path.join(project, "config/mcp-tokens.json");
    const stored = () => readFile(storeFile, "utf8").then((text) => JSON.parse(text)[protectedMcp.url]);
    expect((await stored()).signIns[state]).toEqual({ codeVerifier: expect.stringMatching(/^[\w.~-]{43,128}$/), redirectUri: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/callback$/), expiresAt: expect.any(Number) });
    expect((await stored()).tokens).toBeUndefined();

    // A second process finishes it: the authorization server checks the code against the first one's PKCE challenge.
    expect(await weft(project, ["mcp", "login", "guarded", "--redirect", redirect], env)).toMatchObject({ code: 0, stdout: "signed in to guarded (1 tools)\n" });
    expect((await stat(storeFile)).mode & 0o777).toBe(0o600);
    expect((await stored()).signIns?.[state]).toBeUndefined();
    expect(await weft(project, ["call", "guarded__whoami", "{}"], env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^client \S+ with scopes \(none\)\n$/) });
    // A redirect is good once.
    expect(await weft(project, ["mcp", "login", "guarded", "--redirect", redirect], env)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no sign-in to MCP server "guarded" with this state is in progress (it was finished already, or belongs to another server); sign in again'),
    });
  }, 90_000);

  it("signs out, after which the server says how to sign in again", async () => {
    expect(await weft(project, ["mcp", "logout", "guarded"], env)).toMatchObject({ code: 0, stdout: "signed out of guarded\n" });
    const listed = await weft(project, ["mcp", "list", "--json"], env);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        name: "guarded",
        state: "failed",
        tools: 0,
        error: 'MCP server "guarded" needs you to sign in (OAuth): run "weft mcp login guarded", or give the toolkit a waitFor that answers "authorization" requests',
      },
    ]);
  }, 60_000);
});
