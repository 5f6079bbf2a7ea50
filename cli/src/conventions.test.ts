import { execFile, spawn } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "@weft/sdk/testing";
import { WEFT_BIN, weft } from "./test-fixtures/weft-process.js";

// The command-line conventions users expect of any CLI, on the built bin in a child process.

const run = promisify(execFile);
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string; bin: Record<string, string> };

describe("weft's conventions", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-conventions-")));
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("has a committed, executable bin that npm links before any build", () => {
    expect(manifest.bin).toEqual({ weft: "./bin/weft.js" });
    // On a clean checkout the mode comes from git, so this pins the committed execute bit too.
    expect(statSync(WEFT_BIN).mode & 0o111).toBe(0o111);
    expect(readFileSync(WEFT_BIN, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
  });

  it("runs as the quickstart says, through the bin npm linked: cd examples/quickstart && npx weft --version", async () => {
    const quickstart = fileURLToPath(new URL("../../examples/quickstart/", import.meta.url));
    const { stdout } = await run("npx", ["weft", "--version"], { cwd: quickstart, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    expect(stdout).toBe(`${manifest.version}\n`);
  });

  it("prints its version", async () => {
    expect(await weft(project, ["--version"])).toEqual({ code: 0, stdout: `${manifest.version}\n`, stderr: "" });
  });

  it("shows one command's usage, options and examples for help <cmd> and <cmd> --help alike", async () => {
    const help = await weft(project, ["help", "call"]);
    expect(help).toEqual({
      code: 0,
      stderr: "",
      stdout: `usage: weft call <tool> ['<json arguments>'] [options]

run one tool through the execute path and print its result

options:
  --config <file>  the weft.config.yaml to use (default: found by walking up from here)
  --timeout <ms>   the tool's time limit (default: the tool's own)
  --help           this help

examples:
  weft call read '{"path": "README.md", "limit": 5}'
  weft call memory__read_graph --timeout 5000
`,
    });
    expect(await weft(project, ["call", "--help"])).toEqual(help);
    expect(await weft(project, ["help", "nope"])).toMatchObject({ code: 2, stderr: expect.stringContaining('weft: unknown command "nope"') });
  });

  it("lists every command for --help (exit 0) and for a bare weft (exit 2, on stderr)", async () => {
    const help = await weft(project, ["--help"]);
    expect(help.code).toBe(0);
    for (const name of ["run", "chat", "plugins", "tools", "call", "mcp", "skills", "init", "new-plugin"]) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect(await weft(project, [])).toEqual({ code: 2, stdout: "", stderr: help.stdout });
  });

  it("reports errors under --json as one JSON object with code and message", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - missing-pack\n");
    const failed = await weft(project, ["tools", "--json"]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout)).toEqual({
      code: "PLUGIN_NOT_FOUND",
      message: `${project}/weft.config.yaml:2:5 (option plugins[0]): plugin "missing-pack" not found from ${project}; tried @weft/plugin-missing-pack, weft-plugin-missing-pack, missing-pack. Install it: npm install @weft/plugin-missing-pack`,
    });
    const usage = await weft(project, ["mcp", "restart", "--json"]);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({ code: "USAGE", message: 'say "list", "start <server>", "stop <server>", "login <server>", "logout <server>", "add <name> -- <command>" or "serve"' });
  });

  it("exits 130 when Ctrl-C stops a run", async () => {
    const server = await startScriptedServer();
    try {
      await writeFile(
        path.join(project, "weft.config.yaml"),
        `model: openai-compatible/local-model\nplugins:\n  - openrouter: { compatible: { baseUrl: "${server.url}/v1", contextWindow: 32000, maxRetries: 0 } }\n`,
      );
      server.reply({ headers: { "content-type": "text/event-stream" }, body: 'data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"Once"}}]}\n\n', hang: true });
      const child = spawn(process.execPath, [WEFT_BIN, "run", "tell me a long story"], { cwd: project, env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR } });
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
      while (!stdout.includes("Once")) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill("SIGINT");
      await server.disconnected(0);
      expect(await exited).toBe(130);
    } finally {
      await server.close();
    }
  });

  it("ends quietly when the reader closes the pipe early, as `weft help tools | head -1` does", async () => {
    const child = spawn(process.execPath, [WEFT_BIN, "help", "tools"], { cwd: project, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    child.stdout.destroy(); // the reader is gone before weft writes
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
  });
});
