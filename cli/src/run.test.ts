import { readFile, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { weft } from "./test-fixtures/weft-process.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startScriptedServer, type ScriptedServer } from "@weft/sdk/testing";

const fixtures = fileURLToPath(new URL("../../fixtures/providers/openai-compatible/", import.meta.url));

const PACK = `export default {
  meta: { name: "weather-pack", version: "1.0.0", api: 1 },
  setup(api) {
    api.tools.add({
      name: "weather",
      description: "Current weather for a place",
      inputSchema: { type: "object" },
      execute: async () => ({ output: "sunny, 22C" }),
    });
  },
};
`;

const sse = { "content-type": "text/event-stream" };

describe("weft run", () => {
  let project: string;
  let server: ScriptedServer;
  let toolCallStream: string;
  let textStream: string;

  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-run-")));
    toolCallStream = await readFile(path.join(fixtures, "groq--groq-tool-call.sse"), "utf8");
    textStream = await readFile(path.join(fixtures, "openai--openai-text.sse"), "utf8");
    await writeFile(path.join(project, "pack.js"), PACK);
  });
  afterAll(() => rm(project, { recursive: true, force: true }));
  afterEach(() => server?.close());

  async function useServer() {
    server = await startScriptedServer();
    await writeFile(
      path.join(project, "weft.config.yaml"),
      [
        "model: openai-compatible/llama-3.3-70b",
        "instructions: You answer briefly.",
        "plugins:",
        "  - ./pack.js",
        `  - openrouter: { compatible: { baseUrl: "${server.url}/v1", contextWindow: 32000, maxRetries: 0 } }`,
        "",
      ].join("\n"),
    );
  }

  it("runs the tool loop against a replayed provider stream and streams the answer", async () => {
    await useServer();
    server.reply({ headers: sse, body: toolCallStream }, { headers: sse, body: textStream });
    const result = await weft(project, ["run", "What holiday is it?"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("**Holiday Name:** Harmony Day");
    expect(result.stderr).toMatch(/^· tool weather \{.*\}\n· tool weather returned in \d+ ms: sunny, 22C\n$/);
    const [first, second] = server.requests.map((request) => request.json());
    expect(first.messages).toEqual([
      { role: "system", content: "You answer briefly." },
      { role: "user", content: "What holiday is it?" },
    ]);
    expect(first.tools.map((tool: { function: { name: string } }) => tool.function.name)).toEqual(["weather"]);
    expect(second.messages.at(-1)).toMatchObject({ role: "tool", content: "sunny, 22C" });
  });

  it("prints every event as a JSON line with --json", async () => {
    await useServer();
    server.reply({ headers: sse, body: textStream });
    const result = await weft(project, ["run", "--json", "Hi"]);
    expect(result.code).toBe(0);
    const events = result.stdout.trim().split("\n").map((line) => JSON.parse(line));
    expect(events[0]).toEqual({ type: "model.request", model: "openai-compatible/llama-3.3-70b", messages: 2, tools: 1 });
    expect(events.filter((event) => event.type === "text.delta").map((event) => event.delta).join("")).toContain("Harmony Day");
    expect(events.at(-1)).toMatchObject({ type: "response", response: { status: "done", metadata: { iterations: 1, toolCalls: 0 } } });
  });

  it("exits 2 when the turn stops at its iteration limit", async () => {
    await useServer();
    server.reply({ headers: sse, body: toolCallStream });
    const result = await weft(project, ["run", "--max-iterations", "1", "What holiday is it?"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("weft: the turn stopped early (max-iterations)");
  });

  it("says which variable to set when a credential is missing", async () => {
    await useServer();
    const result = await weft(project, ["run", "--model", "anthropic/claude-sonnet-4-5", "Hi"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^weft: .*ANTHROPIC_API_KEY/);
  });
});
