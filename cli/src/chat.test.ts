import { spawn } from "node:child_process";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "@weft/sdk/testing";
import { WEFT_BIN } from "./test-fixtures/weft-process.js";


/** Runs `weft chat` with `input` piped to stdin (not a terminal: plain lines, no spinner). */
function chat(cwd: string, input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [WEFT_BIN, "chat"], { cwd, env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** An OpenAI-compatible stream: optional text, optional tool calls, then the finish and [DONE]. */
function completion(content: string, toolCalls: { name: string; arguments: object }[] = []): string {
  const chunks: object[] = [{ choices: [{ index: 0, delta: { role: "assistant", content } }] }];
  for (const [index, call] of toolCalls.entries()) {
    chunks.push({ choices: [{ index: 0, delta: { tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name: call.name, arguments: JSON.stringify(call.arguments) } }] } }] });
  }
  chunks.push({ choices: [{ index: 0, delta: {}, finish_reason: toolCalls.length ? "tool_calls" : "stop" }], usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
  return `${chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("")}data: [DONE]\n\n`;
}

const sse = { "content-type": "text/event-stream" };

describe("weft chat", () => {
  let project: string;
  let server: ScriptedServer;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-chat-")));
  });
  afterAll(() => rm(project, { recursive: true, force: true }));
  afterEach(() => server?.close());

  async function useServer(extra = "") {
    server = await startScriptedServer();
    await writeFile(
      path.join(project, "weft.config.yaml"),
      `model: openai-compatible/local-model\n${extra}plugins:\n  - openrouter: { compatible: { baseUrl: "${server.url}/v1", contextWindow: 32000, maxRetries: 0, capabilities: { reasoning: true } } }\n`,
    );
  }

  it("keeps history across turns and answers slash commands", async () => {
    await useServer();
    server.reply({ headers: sse, body: completion("Hello there.") }, { headers: sse, body: completion("You said hi.") });
    const result = await chat(project, "hi\n/effort high\n/tools\nwhat did I say?\n/exit\n");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Hello there.\nYou said hi.\n");
    expect(result.stderr).toContain("weft chat: openai-compatible/local-model, 0 tools.");
    expect(result.stderr).toContain("effort: high\n");
    expect(result.stderr).toContain("(no tools)\n");
    const second = server.requests[1]?.json();
    expect(second.messages.map((message: { role: string; content: string }) => [message.role, message.content])).toEqual([
      ["user", "hi"],
      ["assistant", "Hello there."],
      ["user", "what did I say?"],
    ]);
    expect(second.reasoning_effort).toBe("high");
  });

  it("asks a suspension at the prompt and feeds the answer back", async () => {
    await useServer("builtins: { tools: { bash: false, webfetch: false } }\n");
    server.reply(
      { headers: sse, body: completion("", [{ name: "question", arguments: { question: "Which city?" } }]) },
      { headers: sse, body: completion("Paris it is.") },
    );
    const result = await chat(project, "plan my trip\nParis\n/exit\n");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("question asks: Which city?\n> ");
    expect(result.stdout).toContain("Paris it is.");
    const second = server.requests[1]?.json();
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: "Paris" });
  });

  it("ends at end of input", async () => {
    await useServer();
    const result = await chat(project, "");
    expect(result.code).toBe(0);
    expect(server.requests).toHaveLength(0);
  });

  it("stops the running turn on Ctrl-C and goes on with the next prompt", async () => {
    await useServer();
    // The first reply sends a word, then the server goes quiet until the client leaves.
    const first = `${completion("Thinking").split("\n\n")[0]}\n\n`;
    server.reply({ headers: sse, body: first, hang: true }, { headers: sse, body: completion("Still here.") });
    const child = spawn(process.execPath, [WEFT_BIN, "chat"], { cwd: project, env: { PATH: process.env.PATH, HOME: process.env.HOME, WEFT_TRUST_ALL: process.env.WEFT_TRUST_ALL, WEFT_CACHE_DIR: process.env.WEFT_CACHE_DIR } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const closed = new Promise<number | null>((resolve) => child.on("close", resolve));
    child.stdin.write("tell me a long story\n");
    await until(() => stdout.includes("Thinking"));
    child.kill("SIGINT");
    await server.disconnected(0);
    await until(() => stderr.includes("(turn stopped)"));
    child.stdin.end("are you there?\n/exit\n");
    expect(await closed).toBe(0);
    expect(stdout).toContain("Still here.");
    expect(server.requests).toHaveLength(2);
  });
});

async function until(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out waiting for the chat's output");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
