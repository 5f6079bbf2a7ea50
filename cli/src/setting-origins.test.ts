import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startScriptedServer } from "@weft/sdk/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "./test-fixtures/weft-process.js";

const anthropicText = fileURLToPath(new URL("../../fixtures/providers/anthropic/anthropic-text.sse", import.meta.url));

describe("weft plugins: where each setting came from", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-origins-")));
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  const settingsOf = async (config: string, env: NodeJS.ProcessEnv) => {
    await writeFile(path.join(project, "weft.config.yaml"), config);
    const result = await weft(project, ["plugins", "--json"], env);
    expect(result.stderr).toBe("");
    const plugins = JSON.parse(result.stdout) as { name: string; settings: Record<string, unknown>[] }[];
    return (name: string, setting: string) => plugins.find((plugin) => plugin.name === name)?.settings.find((entry) => entry.setting === setting);
  };

  it("names the config line, the environment variable or the default, and hides secrets", async () => {
    const config = ["model: anthropic/claude-sonnet-4-5", "plugins:", "  - anthropic:", "      baseUrl: http://127.0.0.1:9", "  - ollama", "  - files: { root: . }", ""].join("\n");
    const file = path.join(project, "weft.config.yaml");
    const setting = await settingsOf(config, { ANTHROPIC_API_KEY: "sk-from-env", OLLAMA_HOST: "127.0.0.1:7" });
    expect(setting("@weft/plugin-anthropic", "model")).toEqual({ setting: "model", value: "anthropic/claude-sonnet-4-5", from: "config", file, line: 1 });
    expect(setting("@weft/plugin-anthropic", "baseUrl")).toEqual({ setting: "baseUrl", value: "http://127.0.0.1:9", from: "config", file, line: 4 });
    expect(setting("@weft/plugin-anthropic", "apiKey")).toEqual({ setting: "apiKey", value: "(set)", from: "env", variable: "ANTHROPIC_API_KEY" });
    expect(setting("@weft/plugin-ollama", "baseUrl")).toEqual({ setting: "baseUrl", value: "127.0.0.1:7", from: "env", variable: "OLLAMA_HOST" });
    expect(setting("@weft/plugin-files", "root")).toEqual({ setting: "root", value: ".", from: "config", file, line: 6 });
    expect(setting("@weft/plugin-files", "builtins")).toEqual({ setting: "builtins", value: false, from: "default" });

    const unset = await settingsOf(config, {});
    expect(unset("@weft/plugin-ollama", "baseUrl")).toEqual({ setting: "baseUrl", from: "unset", variable: "OLLAMA_HOST" });

    await writeFile(file, config);
    const table = await weft(project, ["plugins"], { ANTHROPIC_API_KEY: "sk-from-env" });
    expect(table.stdout.split("\n\n")[1]).toBe(
      [
        "PLUGIN                  SETTING   VALUE                          FROM",
        '@weft/plugin-anthropic  baseUrl   "http://127.0.0.1:9"           weft.config.yaml:4',
        '@weft/plugin-anthropic  apiKey    "(set)"                        env ANTHROPIC_API_KEY',
        '@weft/plugin-anthropic  model     "anthropic/claude-sonnet-4-5"  weft.config.yaml:1',
        "@weft/plugin-ollama     baseUrl                                  unset (OLLAMA_HOST)",
        '@weft/plugin-files      root      "."                            weft.config.yaml:6',
        "@weft/plugin-files      builtins  false                          default",
        "@weft/plugin-files      tools     {}                             default",
        "",
      ].join("\n"),
    );
    expect(table.stdout).not.toContain("sk-from-env");
  });

  it("lets the config win over the environment, in what it shows and in the request it sends", async () => {
    const server = await startScriptedServer();
    try {
      server.route("GET", "/v1/models/claude-sonnet-4-5", { status: 404 });
      server.reply({ headers: { "content-type": "text/event-stream" }, body: await readFile(anthropicText, "utf8") });
      const config = ["model: anthropic/claude-sonnet-4-5", "plugins:", `  - anthropic: { apiKey: sk-from-config, baseUrl: "${server.url}", maxRetries: 0 }`, ""].join("\n");
      // The environment names another key and an endpoint nothing listens on.
      const env = { ANTHROPIC_API_KEY: "sk-from-env", ANTHROPIC_BASE_URL: "http://127.0.0.1:9" };
      const setting = await settingsOf(config, env);
      expect(setting("@weft/plugin-anthropic", "apiKey")).toMatchObject({ from: "config", line: 3 });
      expect(setting("@weft/plugin-anthropic", "baseUrl")).toMatchObject({ value: server.url, from: "config", line: 3 });
      const run = await weft(project, ["run", "Hi"], env);
      expect(run.code, run.stderr).toBe(0);
      expect(server.requests.map((request) => [request.path, request.headers["x-api-key"]])).toEqual([["/v1/messages", "sk-from-config"]]);
    } finally {
      await server.close();
    }
  });
});
