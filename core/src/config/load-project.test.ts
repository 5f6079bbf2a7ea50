import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { configLoader, writePackage } from "../test-fixtures/config-projects.js";
import { loadProject } from "./load-project.js";

/** A plugin package as plain JS (no imports), so the temp tree needs nothing but itself. */
function pluginSource(name: string, tool: string, extra = ""): string {
  return `export default {
  meta: { name: ${JSON.stringify(name)}, version: "1.2.3", api: 1 },
  ${extra}
  setup(api, options) {
    api.hooks.tools.tap((tools) => {
      tools.add({
        name: ${JSON.stringify(tool)},
        description: "from " + ${JSON.stringify(name)},
        inputSchema: { type: "object", properties: {} },
        execute: async () => ({ output: JSON.stringify(options ?? null) }),
      });
    });
  },
};
`;
}

describe("loadProject", () => {
  let base: string;
  let project: string;
  let elsewhere: string;

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-load-")));
    project = path.join(base, "project");
    elsewhere = path.join(base, "elsewhere");
    await mkdir(path.join(project, "tools"), { recursive: true });
    await mkdir(elsewhere, { recursive: true });
    await writePackage(project, "@weft/plugin-alpha", pluginSource("@weft/plugin-alpha", "alpha_project"));
    await writePackage(elsewhere, "@weft/plugin-alpha", pluginSource("@weft/plugin-alpha", "alpha_elsewhere"));
    for (const name of ["@weft/plugin-beta", "weft-plugin-beta", "beta"]) await writePackage(project, name, pluginSource(name, `beta_from_${name.replace(/\W/g, "_")}`));
    for (const name of ["weft-plugin-gamma", "gamma"]) await writePackage(project, name, pluginSource(name, `gamma_from_${name.replace(/\W/g, "_")}`));
    await writePackage(
      project,
      "weft-plugin-rooted",
      pluginSource("weft-plugin-rooted", "rooted", `options: { type: "object", properties: { root: { type: "string" }, depth: { type: "integer", default: 2 } }, required: ["root"] },`),
    );
    await writePackage(project, "weft-plugin-future", pluginSource("weft-plugin-future", "future").replace("api: 1", "api: 2"));
    await writePackage(project, "weft-plugin-needy", pluginSource("weft-plugin-needy", "needy", `requires: ["@weft/plugin-mcp"],`));
    await writePackage(project, "weft-plugin-twin", pluginSource("@weft/plugin-beta", "twin"));
    await writeFile(path.join(project, "tools", "my-pack.js"), pluginSource("my-pack", "local_tool"));
    for (const name of ["broken-a", "broken-b"]) await writeFile(path.join(project, "tools", `${name}.js`), `throw new Error("${name} cannot load");\n`);
    await writeFile(path.join(project, "tools", "marker.js"), `globalThis.weftMarkerLoaded = true;\n${pluginSource("marker", "marker_tool")}`);
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const { load, loadError } = configLoader(
    () => project,
    () => elsewhere,
  );

  it("resolves plugins from the config file's folder, not the working directory", async () => {
    const { kernel, dir } = await load("plugins:\n  - alpha\n");
    expect(dir).toBe(project);
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["alpha_project"]);
    expect(kernel.plugins().map((plugin) => [plugin.name, plugin.version, plugin.from])).toEqual([
      ["@weft/plugin-alpha", "1.2.3", `file://${project}/node_modules/@weft/plugin-alpha/index.js`],
    ]);
    await kernel.close();
  });

  it("finds weft.config.yaml by walking up from the working directory", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins: [alpha]\n");
    const { kernel, file } = await loadProject({ cwd: path.join(project, "tools"), logger: memoryLogger() });
    expect(file).toBe(path.join(project, "weft.config.yaml"));
    await kernel.close();
  });

  it("expands a short name to @weft/plugin-x, then weft-plugin-x, then x", async () => {
    const { kernel } = await load("plugins: [beta, gamma]\n");
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["beta_from__weft_plugin_beta", "gamma_from_weft_plugin_gamma"]);
    await kernel.close();
  });

  it("loads a plugin by relative path, with options from a one-key map", async () => {
    const { kernel } = await load("plugins:\n  - ./tools/my-pack.js: { level: 3 }\n");
    expect(await kernel.execute({ name: "local_tool", arguments: {} })).toEqual({ output: '{"level":3}' });
    await kernel.close();
  });

  it("validates and defaults a plugin's options", async () => {
    const { kernel } = await load("plugins:\n  - rooted: { root: ./workspace }\n");
    expect(await kernel.execute({ name: "rooted", arguments: {} })).toEqual({ output: '{"root":"./workspace","depth":2}' });
    await kernel.close();
  });

  it("hides disableTools", async () => {
    const { kernel } = await load("plugins: [alpha, gamma]\ndisableTools: [alpha_project]\n");
    expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["gamma_from_weft_plugin_gamma"]);
    await kernel.close();
  });

  it("lists every candidate of an unknown plugin and says how to install it", async () => {
    const error = await loadError("model: anthropic/claude-sonnet-4-5\nplugins:\n  - alpha\n  - jira\n");
    expect(error.code).toBe("PLUGIN_NOT_FOUND");
    expect(error.message).toBe(
      `${project}/weft.config.yaml:4:5 (option plugins[1]): plugin "jira" not found from ${project}; tried @weft/plugin-jira, weft-plugin-jira, jira. Install it: npm install @weft/plugin-jira`,
    );
  });

  it("imports the listed plugins side by side and reports the first that fails, on its line", async () => {
    const error = await loadError("plugins:\n  - ./tools/broken-a.js\n  - ./tools/broken-b.js\n  - ./tools/marker.js\n");
    expect(error.code).toBe("PLUGIN_INVALID");
    expect(error.message).toBe(
      `${project}/weft.config.yaml:2:5 (option plugins[0]): plugin "./tools/broken-a.js" failed to load from file://${project}/tools/broken-a.js: broken-a cannot load`,
    );
    // The entry after the failing ones is imported too (one after another, none would be): the loads
    // started together, and broken-b's failure, unread, is no unhandled rejection.
    await vi.waitFor(() => expect((globalThis as { weftMarkerLoaded?: boolean }).weftMarkerLoaded).toBe(true), { timeout: 20_000 });
  });

  it("names the line and column of bad YAML", async () => {
    const error = await loadError("plugins:\n  - alpha\n  bad: [\n");
    expect(error.code).toBe("CONFIG_INVALID");
    expect(error.message).toMatch(new RegExp(`^${project}/weft.config.yaml:3:\\d+: invalid YAML: `));
  });

  it("names the file, line, column and path of a bad option", async () => {
    const error = await loadError("plugins:\n  - alpha\n  - rooted: { root: 42 }\n");
    expect(error.message).toBe(`${project}/weft.config.yaml:3:21 (option plugins[1].rooted.root): invalid option for weft-plugin-rooted: must be string`);
    const missing = await loadError("plugins:\n  - rooted: {}\n");
    expect(missing.message).toBe(`${project}/weft.config.yaml:2:13 (option plugins[0].rooted): invalid option for weft-plugin-rooted: must have required properties root`);
    const typo = await loadError("plugins:\n  - rooted: { root: ./ws, rot: ./ws }\n");
    expect(typo.message).toBe(`${project}/weft.config.yaml:2:32 (option plugins[0].rooted.rot): invalid option for weft-plugin-rooted: is not an option (known: root, depth)`);
    const unknown = await loadError("plugins: [alpha]\nplugns: [beta]\n");
    expect(unknown.message).toBe(
      `${project}/weft.config.yaml:2:1 (option plugns): unknown option "plugns"; known options: model, instructions, effort, plugins, disableTools, maxIterations, deadline, sessions, mcp, mcpConfig, skills, skillsDir, skillsFilter, skillSampleLimit, disableSkills, builtins, agents (a third-party plugin's own key needs the plugin listed under plugins)`,
    );
    const effort = await loadError("effort: extreme\n");
    expect(effort.message).toBe(`${project}/weft.config.yaml:1:9 (option effort): expected one of off, low, medium, high, max, got "extreme"`);
  });

  it("refuses a plugin built for another API version", async () => {
    const error = await loadError("plugins: [future]\n");
    expect(error.code).toBe("PLUGIN_API_MISMATCH");
    expect(error.message).toBe(
      `${project}/weft.config.yaml:1:11 (option plugins[0]): weft-plugin-future@1.2.3 was built for plugin API 2, but this weft speaks plugin API 1; install a version of weft-plugin-future built for API 1`,
    );
  });

  it("refuses a plugin whose requirement is not enabled before it", async () => {
    const error = await loadError("plugins: [needy]\n");
    expect(error.code).toBe("PLUGIN_REQUIRES");
    expect(error.message).toBe(
      `${project}/weft.config.yaml:1:11 (option plugins[0]): weft-plugin-needy requires @weft/plugin-mcp: enable @weft/plugin-mcp before weft-plugin-needy`,
    );
  });

  it("refuses the same plugin twice", async () => {
    const error = await loadError("plugins: [beta, twin]\n");
    expect(error.code).toBe("PLUGIN_DUPLICATE");
    expect(error.message).toContain("(option plugins[1]): @weft/plugin-beta is enabled twice; list it once");
  });

  it("loads the three provider plugins by short name and creates a model of each provider", async () => {
    const { kernel } = await load(
      [
        "plugins:",
        "  - anthropic: { apiKey: sk-ant-test }",
        "  - openrouter: { apiKey: sk-or-test, compatible: { baseUrl: 'http://127.0.0.1:9/v1' } }",
        "  - ollama",
        "",
      ].join("\n"),
    );
    expect(kernel.providers()).toEqual(["anthropic", "ollama", "openai-compatible", "openrouter"]);
    for (const ref of ["anthropic/claude-sonnet-4-5", "openrouter/openai/gpt-4o", "openai-compatible/local", "ollama/llama3.2"]) {
      const model = await kernel.createModel(ref);
      expect(`${model.provider}/${model.model}`).toBe(ref);
    }
    await expect(kernel.createModel("mistral/large")).rejects.toThrow(
      'unknown provider "mistral"; registered providers: anthropic, ollama, openai-compatible, openrouter. Enable the plugin that provides it (plugins: in weft.config.yaml, or createToolkit({ plugins }))',
    );
    await kernel.close();
  });
});

