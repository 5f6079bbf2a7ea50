import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm, stat, writeFile } from "node:fs/promises";
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
      env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, ...env },
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
