import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp, { childEnvironment, loadMcpConfig, parseMcpConfig, parseServerEntry, resolveTransport } from "./index.js";
import { LineTail } from "./line-tail.js";
import { stdio } from "./test-fixtures/harness.js";

const invalid = (message: string) => expect.objectContaining({ code: "MCP_CONFIG_INVALID", message });

describe("parseMcpConfig", () => {
  it("reads the common format (Claude Desktop, Cursor, VS Code), in file order", () => {
    const specs = parseMcpConfig(
      {
        mcpServers: {
          fs: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" }, cwd: "sub" },
          web: { type: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" }, timeout: 5000, toolTimeout: 9000, callTimeout: 60_000, maxResultBytes: 65_536, logLevel: "debug" },
          old: { type: "sse", url: "https://example.com/sse", disabled: true },
        },
      },
      { baseDir: "/project" },
    );
    expect(specs).toEqual([
      {
        name: "fs",
        enabled: true,
        timeoutMs: 30_000,
        toolTimeoutMs: 120_000,
        callTimeoutMs: 3_600_000,
        maxResultBytes: 1_048_576,
        logLevel: "warning",
        transport: { kind: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" }, cwd: "/project/sub", inheritEnv: [] },
      },
      { name: "web", enabled: true, timeoutMs: 5000, toolTimeoutMs: 9000, callTimeoutMs: 60_000, maxResultBytes: 65_536, logLevel: "debug", transport: { kind: "http", url: "https://example.com/mcp", headers: { Authorization: "Bearer x" } } },
      { name: "old", enabled: false, timeoutMs: 30_000, toolTimeoutMs: 120_000, callTimeoutMs: 3_600_000, maxResultBytes: 1_048_576, logLevel: "warning", transport: { kind: "sse", url: "https://example.com/sse", headers: {} } },
    ]);
  });

  it("reads the array form (local/remote, command array, environment) under any top-level key", () => {
    for (const key of ["mcpServers", "servers", "mcp"]) {
      const specs = parseMcpConfig(
        {
          [key]: {
            local: { type: "local", command: ["npx", "-y", "pkg"], environment: { TOKEN: "t" }, enabled: false },
            remote: { type: "remote", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": "k" } },
          },
        },
        { baseDir: "/p" },
      );
      expect(specs.map((spec) => [spec.name, spec.enabled, spec.transport])).toEqual([
        ["local", false, { kind: "stdio", command: "npx", args: ["-y", "pkg"], env: { TOKEN: "t" }, cwd: "/p", inheritEnv: [] }],
        ["remote", true, { kind: "http", url: "http://127.0.0.1:9/mcp", headers: { "X-Key": "k" } }],
      ]);
    }
  });

  it("accepts an inline map of servers (weft.config.yaml `mcp:`)", () => {
    expect(parseMcpConfig({ one: { command: "x" } }).map((spec) => spec.name)).toEqual(["one"]);
    // The keys the toolkit reads beside the servers are not servers.
    expect(parseMcpConfig({ one: { command: "x" }, builtins: { tools: {} }, agents: [], $schema: "s" }).map((spec) => spec.name)).toEqual(["one"]);
  });

  it("splits `tools` into an allowlist and a drop-list", () => {
    const [allow, deny] = parseMcpConfig({ servers: { a: { command: "x", tools: ["read", "write", "!write"] }, b: { command: "x", tools: ["!delete"] } } });
    expect(allow?.tools).toEqual({ allow: ["read", "write"], deny: ["write"] });
    expect(deny?.tools).toEqual({ deny: ["delete"] });
  });

  it("names the server and the field of every mistake", () => {
    const cases: [unknown, string][] = [
      [[], 'the mcp config must be a JSON object like {"mcpServers": {"name": {"command": "..."}}}'],
      [{ mcpServers: [] }, '"mcpServers" must be an object mapping server names to their settings'],
      [{ mcpServers: { a: "npx" } }, 'mcp server "a": entry must be an object with "command" (a local server) or "url" (a remote one)'],
      [{ mcpServers: { a: {} } }, 'mcp server "a": "command" is required for a local (stdio) server: the program to run, without a shell'],
      [{ mcpServers: { a: { command: "x", url: "http://h" } } }, 'mcp server "a": entry has both "command" and "url": a server is either local (command) or remote (url)'],
      [{ mcpServers: { a: { command: "x", args: "-y" } } }, 'mcp server "a": "args" must be an array of strings'],
      [{ mcpServers: { a: { command: "x", env: { N: 1 } } } }, 'mcp server "a": "env.N" must be a string'],
      [{ mcpServers: { a: { command: "x", timeout: -1 } } }, 'mcp server "a": "timeout" must be a positive number of milliseconds'],
      [{ mcpServers: { a: { command: "x", disabled: "yes" } } }, 'mcp server "a": "disabled" must be true or false'],
      [{ mcpServers: { a: { type: "ws", url: "ws://h" } } }, 'mcp server "a": "type" must be one of stdio, local, http, streamable-http, streamableHttp, remote, sse (got "ws")'],
      [{ mcpServers: { a: { type: "http" } } }, 'mcp server "a": "url" is required for a remote (http) server'],
      [{ mcpServers: { a: { url: "ftp://h/x" } } }, 'mcp server "a": "url" must be an http:// or https:// URL (got "ftp://h/x")'],
      [{ mcpServers: { a: { type: "local", command: [] } } }, 'mcp server "a": "command" must not be an empty array'],
    ];
    for (const [config, message] of cases) expect(() => parseMcpConfig(config)).toThrow(invalid(message));
  });

  it("reads a remote server's auth entry with the issue's names, and names every mistake in it", () => {
    const [server] = parseMcpConfig(
      { mcpServers: { a: { url: "https://h/mcp", auth: { grant: "client_credentials", clientId: "weft", clientSecret: "${SECRET}", scopes: ["read"] } } } },
      { env: { SECRET: "s3cret" } },
    );
    if (!server) throw new Error("expected a server");
    expect(resolveTransport(server, { SECRET: "s3cret" })).toMatchObject({ auth: { grant: "client_credentials", clientId: "weft", clientSecret: "s3cret", scopes: ["read"] } });
    expect(parseServerEntry("b", { url: "https://h/mcp", auth: {} }).transport).toMatchObject({ auth: { grant: "authorization_code" } });
    const remote = (auth: unknown) => ({ mcpServers: { a: { url: "https://h/mcp", auth } } });
    const cases: [unknown, string][] = [
      [remote("yes"), 'mcp server "a": "auth" must be an object (use {} for OAuth with dynamic client registration)'],
      [remote({ client_id: "x" }), 'mcp server "a": "auth.client_id" is not an auth field (known: grant, clientId, clientSecret, privateKey, signingAlgorithm, scopes, redirectPort)'],
      [remote({ grant: "password" }), 'mcp server "a": "auth.grant" must be one of authorization_code, client_credentials (got "password")'],
      [remote({ grant: "client_credentials", clientSecret: "s" }), 'mcp server "a": "auth.clientId" is required with "grant": "client_credentials"'],
      [remote({ grant: "client_credentials", clientId: "x" }), 'mcp server "a": "auth" needs "clientSecret" or "privateKey" with "grant": "client_credentials"'],
      [remote({ redirectPort: 70_000 }), 'mcp server "a": "auth.redirectPort" must be a port number (1-65535)'],
      [remote({ scopes: "read" }), 'mcp server "a": "auth.scopes" must be an array of scope names'],
      [remote({ clientId: "x", clientSecret: "s", privateKey: "k" }), 'mcp server "a": "auth" has both "clientSecret" and "privateKey": the client authenticates one way'],
      [remote({ clientId: "x", clientSecret: "${NOPE}" }), 'mcp server "a": "auth.clientSecret": environment variable NOPE is not set (set it, or write ${NOPE:-default} for a fallback)'],
      [{ mcpServers: { a: { command: "x", auth: {} } } }, 'mcp server "a": "auth" is for remote (url) servers; give a local server its credentials in "env"'],
    ];
    for (const [config, message] of cases) expect(() => parseMcpConfig(config, { env: {} })).toThrow(invalid(message));
  });

  it("expands ${VAR} in args, env, url and headers, and names an unset variable without its value", () => {
    const env = { TOKEN: "s3cret", HOST: "api.example.com" };
    const [local, remote] = parseMcpConfig(
      { mcpServers: { local: { command: "tool", args: ["--token=${TOKEN}"], env: { KEY: "${TOKEN}" } }, remote: { url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } } },
      { env },
    );
    if (!local || !remote) throw new Error("expected two servers");
    expect(resolveTransport(local, env)).toMatchObject({ args: ["--token=s3cret"], env: { KEY: "s3cret" } });
    expect(resolveTransport(remote, env)).toMatchObject({ url: "https://api.example.com/mcp", headers: { Authorization: "Bearer s3cret" } });
    // The command too, and a default for what is unset (Claude Code's .mcp.json forms).
    const [tool] = parseMcpConfig({ mcpServers: { tool: { command: "${TOOLS:-/opt/tools}/run", args: ["--host=${HOST}"] } } }, { env });
    if (!tool) throw new Error("expected a server");
    expect(resolveTransport(tool, env)).toMatchObject({ command: "/opt/tools/run", args: ["--host=api.example.com"] });
    expect(() => parseMcpConfig({ mcpServers: { web: { url: "https://h/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } } } }, { env })).toThrow(
      invalid('mcp server "web": headers.Authorization: environment variable API_TOKEN is not set (set it, or write ${API_TOKEN:-default} for a fallback)'),
    );
    // A disabled server may name variables that are not set.
    expect(parseMcpConfig({ mcpServers: { off: { command: "x", args: ["${NOPE}"], enabled: false } } }, { env })).toHaveLength(1);
  });
});

describe("loadMcpConfig", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "weft-mcp-config-"));
    await writeFile(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { a: { command: "x" } } }));
    await writeFile(join(dir, "broken.json"), "{ nope");
    await writeFile(join(dir, "bad-field.json"), JSON.stringify({ mcpServers: { b: { command: 7 } } }));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("takes a path relative to the base folder, raw JSON text, or an object", () => {
    expect(loadMcpConfig("./mcp.json", { baseDir: dir }).map((spec) => spec.name)).toEqual(["a"]);
    expect(loadMcpConfig('  {"servers": {"t": {"url": "http://127.0.0.1:1/mcp"}}}').map((spec) => spec.name)).toEqual(["t"]);
    expect(loadMcpConfig({ mcp: { o: { command: "x" } } }).map((spec) => spec.name)).toEqual(["o"]);
  });

  it("names the file in its errors", () => {
    expect(() => loadMcpConfig("missing.json", { baseDir: dir })).toThrow(
      invalid(`cannot read the mcp config ${join(dir, "missing.json")}: ENOENT: no such file or directory, open '${join(dir, "missing.json")}'; check the path (relative paths start from ${dir})`),
    );
    expect(() => loadMcpConfig("broken.json", { baseDir: dir })).toThrow(expect.objectContaining({ code: "MCP_CONFIG_INVALID", message: expect.stringMatching(new RegExp(`^${join(dir, "broken.json")} is not valid JSON: `)) }));
    expect(() => loadMcpConfig("bad-field.json", { baseDir: dir })).toThrow(invalid(`${join(dir, "bad-field.json")}:1:31: mcp server "b": "command" must be a string`));
  });

  it("names the line and column of an unset ${VAR} (and the server and field), in a .mcp.json with tabs and in a one-line mcp.json", async () => {
    const file = join(dir, ".mcp.json");
    const entries = { web: { url: "https://h/mcp", headers: { Accept: "text/plain", Authorization: "Bearer ${API_TOKEN}" } }, tool: { command: "run", args: ["--host", "${HOST}"] } };
    await writeFile(file, `${JSON.stringify({ mcpServers: entries }, null, "\t")}\n`);
    expect(() => loadMcpConfig(".mcp.json", { baseDir: dir, env: { HOST: "h" } })).toThrow(
      invalid(`${file}:7:22: mcp server "web": headers.Authorization: environment variable API_TOKEN is not set (set it, or write \${API_TOKEN:-default} for a fallback)`),
    );
    expect(() => loadMcpConfig(".mcp.json", { baseDir: dir, env: { API_TOKEN: "t" } })).toThrow(
      invalid(`${file}:14:5: mcp server "tool": args[1]: environment variable HOST is not set (set it, or write \${HOST:-default} for a fallback)`),
    );
    await writeFile(join(dir, "one-line.json"), JSON.stringify({ servers: { web: { url: "${MCP_URL}/mcp" } } }));
    expect(() => loadMcpConfig("one-line.json", { baseDir: dir, env: {} })).toThrow(
      invalid(`${join(dir, "one-line.json")}:1:26: mcp server "web": "url": environment variable MCP_URL is not set (set it, or write \${MCP_URL:-default} for a fallback)`),
    );
    // Through the plugin, as a project's .mcp.json reaches it.
    await expect(createTestKernel([[mcp, { config: ".mcp.json" }]], { logger: memoryLogger(), baseDir: dir })).rejects.toThrow(`${file}:7:22: mcp server "web": headers.Authorization: environment variable API_TOKEN is not set`);
  });
});

describe("the plugin's setup", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "weft-mcp-plugin-"));
    await writeFile(join(dir, "mcp.json"), JSON.stringify({ mcpServers: { local: stdio("test") } }));
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("resolves a relative config path from the base folder and starts its servers", async () => {
    const kernel = await createTestKernel([[mcp, { config: "./mcp.json", instructions: true }]], { baseDir: dir });
    try {
      expect((await kernel.execute({ name: "local__echo", arguments: { text: "from mcp.json" } })).output).toBe("from mcp.json");
      expect(await kernel.buildPrompt("Base.")).toBe("Base.\n\n# MCP server instructions\n\n## local\n\nUse echo to repeat text.");
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it("stops waiting for servers when the load's signal aborts", async () => {
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { stuck: stdio("test", "--hang-handshake") } } }]], { logger: memoryLogger(), signal: AbortSignal.abort() });
    try {
      expect(kernel.scope("test").need("mcp").status()).toEqual([{ name: "stuck", state: "failed", tools: 0, error: "its start was aborted" }]);
    } finally {
      await kernel.close();
    }
  }, 60_000);

  it("throws a typed error the application can catch for a bad config", async () => {
    await expect(createTestKernel([[mcp, { config: { mcpServers: { broken: { command: ["a"], type: "remote" } } } }]])).rejects.toMatchObject({
      code: "MCP_CONFIG_INVALID",
      message: 'mcp server "broken": "url" is required for a remote (http) server',
    });
  });
});

describe("the stdio environment", () => {
  it("passes the short list, LC_*, inheritEnv and env, and nothing else", () => {
    const parent = { PATH: "/bin", HOME: "/h", LC_ALL: "C", https_proxy: "http://proxy", OPENAI_API_KEY: "sk-secret", EXTRA: "x", FN: "() { evil; }", SHELL: "() { :; }" };
    expect(childEnvironment(parent, ["EXTRA", "UNSET"], { GIVEN: "y", PATH: "/override" })).toEqual({
      PATH: "/override",
      HOME: "/h",
      LC_ALL: "C",
      https_proxy: "http://proxy",
      EXTRA: "x",
      GIVEN: "y",
    });
  });

  it("is what a real server sees", async () => {
    process.env.WEFT_SHARED = "shared";
    process.env.WEFT_SECRET = "secret";
    const kernel = await createTestKernel([[mcp, { config: { mcpServers: { env: { ...stdio("everything"), inheritEnv: ["WEFT_SHARED"], env: { WEFT_GIVEN: "given" } } } } }]], {
      logger: memoryLogger(),
    });
    try {
      const seen = JSON.parse((await kernel.execute({ name: "env__get-env", arguments: {} })).output) as Record<string, string>;
      expect(seen).toMatchObject({ WEFT_SHARED: "shared", WEFT_GIVEN: "given", PATH: process.env.PATH });
      expect(seen.WEFT_SECRET).toBeUndefined();
    } finally {
      delete process.env.WEFT_SHARED;
      delete process.env.WEFT_SECRET;
      await kernel.close();
    }
  }, 60_000);
});

describe("LineTail", () => {
  it("keeps the last lines, each capped, with the unfinished one", () => {
    const tail = new LineTail(2, 5);
    expect(tail.push("one\ntwo\nthree\nfour-is-long\nfi")).toEqual(["one", "two", "three", "four-…"]);
    expect(tail.lines()).toEqual(["three", "four-…", "fi"]);
  });
});
