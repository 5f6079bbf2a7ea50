import { spawn } from "node:child_process";
import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "@weft/sdk/testing";
import { WEFT_BIN, WORKSPACE_MODULES } from "./test-fixtures/weft-process.js";

/** The escape character that starts an ANSI sequence. */
const ESC = "\u001b";

// What weft shows on a terminal, under a real pseudo-terminal: util-linux `script` runs the command with
// the pty as its terminal and copies everything the terminal shows to our pipe.

interface Terminal {
  output(): string;
  type(text: string): void;
  exited: Promise<number | null>;
}

function onTerminal(cwd: string, commandLine: string, env: NodeJS.ProcessEnv = {}): Terminal {
  const child = spawn("script", ["-qefc", commandLine, "/dev/null"], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, TERM: "xterm", WEFT_TRUST_ALL: "1", WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR, ...env } });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  return { output: () => output, type: (text) => void child.stdin.write(text), exited: new Promise((resolve) => child.on("close", resolve)) };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const weftLine = (args: string) => `${JSON.stringify(process.execPath)} ${JSON.stringify(WEFT_BIN)} ${args}`;

describe("weft on a terminal", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-terminal-")));
    const memory = `${WORKSPACE_MODULES}@modelcontextprotocol/server-memory/dist/index.js`;
    await writeFile(path.join(project, "mcp.json"), JSON.stringify({ mcpServers: { memory: { command: process.execPath, args: [memory], env: { MEMORY_FILE_PATH: path.join(project, "memory.jsonl") } } } }));
    await writeFile(path.join(project, "weft.config.yaml"), "mcp: ./mcp.json\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("prints a progress line per MCP server as it starts, dimmed unless NO_COLOR", async () => {
    const colored = onTerminal(project, weftLine("mcp list"));
    expect(await colored.exited).toBe(0);
    expect(colored.output()).toContain("\x1b[2mmcp memory: starting\x1b[22m\r\n");
    expect(colored.output()).toMatch(new RegExp(`${ESC}\\[2mmcp memory: connected \\(\\d+ tools\\)${ESC}\\[22m\\r\\n`));
    const plain = onTerminal(project, weftLine("mcp list"), { NO_COLOR: "1" });
    expect(await plain.exited).toBe(0);
    expect(plain.output()).toContain("mcp memory: starting\r\n");
    expect(plain.output()).not.toContain("\x1b[");
  });

  it("prints no progress in CI, on TERM=dumb, or when stderr is not the terminal", async () => {
    for (const env of [{ CI: "true" }, { TERM: "dumb" }]) {
      const quiet = onTerminal(project, weftLine("mcp list"), env);
      expect(await quiet.exited).toBe(0);
      expect(quiet.output()).not.toContain("mcp memory: starting");
      expect(quiet.output()).toContain("memory  connected");
    }
    const redirected = onTerminal(project, `${weftLine("tools")} 2> progress.log`);
    expect(await redirected.exited).toBe(0);
    expect(await readFile(path.join(project, "progress.log"), "utf8")).toBe("");
  });

  it("spins on stderr while the model thinks when only stdout is redirected, and Ctrl-C exits 130", async () => {
    const server = await startScriptedServer();
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-spinner-")));
    try {
      await writeFile(
        path.join(dir, "weft.config.yaml"),
        `model: openai-compatible/local-model\nplugins:\n  - openrouter: { compatible: { baseUrl: "${server.url}/v1", contextWindow: 32000, maxRetries: 0 } }\n`,
      );
      server.reply({ silent: true });
      const terminal = onTerminal(dir, `${weftLine('run "think hard"')} > answer.md`);
      await until(() => terminal.output().includes(" thinking"), "the spinner");
      terminal.type("\x03");
      expect(await terminal.exited).toBe(130);
      expect(await readFile(path.join(dir, "answer.md"), "utf8")).toBe("");
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("in chat, prints a tool's question after the pending log lines, with its prompt last", async () => {
    const server = await startScriptedServer();
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-chat-tty-")));
    try {
      await writeFile(
        path.join(dir, "weft.config.yaml"),
        `model: openai-compatible/local-model\nbuiltins: { tools: { bash: false, webfetch: false } }\nplugins:\n  - openrouter: { compatible: { baseUrl: "${server.url}/v1", contextWindow: 32000, maxRetries: 0 } }\n`,
      );
      const stream = (delta: object, finish: string) =>
        `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\ndata: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finish }] })}\n\ndata: [DONE]\n\n`;
      const question = { tool_calls: [{ index: 0, id: "call_0", type: "function", function: { name: "question", arguments: '{"question":"Which city?"}' } }] };
      const sse = { "content-type": "text/event-stream" };
      server.reply({ headers: sse, body: stream(question, "tool_calls") }, { headers: sse, body: stream({ content: "Paris it is." }, "stop") });
      const terminal = onTerminal(dir, weftLine("chat"));
      await until(() => terminal.output().includes("you> "), "the chat prompt");
      terminal.type("plan my trip\r");
      await until(() => terminal.output().includes("question asks"), "the question");
      await until(() => terminal.output().endsWith("> "), "the answer prompt");
      const screen = terminal.output();
      expect(screen.indexOf("waits for the user (question): Which city?")).toBeLessThan(screen.indexOf("question asks: Which city?"));
      expect(screen.endsWith("question asks: Which city?\r\n> ")).toBe(true);
      terminal.type("Paris\r");
      await until(() => terminal.output().includes("Paris it is."), "the answer");
      terminal.type("/exit\r");
      expect(await terminal.exited).toBe(0);
      expect(server.requests[1]?.json().messages.at(-1)).toMatchObject({ role: "tool", content: "Paris" });
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
