import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, defineTool, definePlugin, memoryLogger, type PendingAnswer, type ToolResult } from "@weft/sdk";
import { defined, waitForProcessExit } from "@weft/sdk/testing";
import { createToolkit } from "./toolkit.js";

const BUILTINS = ["apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write"];

const appTool = (name: string, output = `app ${name}`) =>
  defineTool({ name, description: `the application's ${name}`, input: Type.Object({}), execute: () => ({ output }) });

const dataSkill = { name: "release-notes", description: "Draft release notes", content: "Read the changelog first." };

describe("createToolkit", () => {
  it("offers the ten built-in tools by default, from the packs they belong to", async () => {
    const toolkit = await createToolkit({ logger: memoryLogger() });
    expect(toolkit.tools.map((tool) => tool.name)).toEqual(BUILTINS);
    expect(toolkit.tools.map((tool) => `${tool.name}:${tool.source.kind}:${tool.source.id}`)).toEqual([
      "apply_patch:builtin:@weft/plugin-coding",
      "bash:builtin:@weft/plugin-shell",
      "edit:builtin:@weft/plugin-files",
      "glob:builtin:@weft/plugin-files",
      "grep:builtin:@weft/plugin-files",
      "question:builtin:@weft/core",
      "read:builtin:@weft/plugin-files",
      "todowrite:builtin:@weft/core",
      "webfetch:builtin:@weft/plugin-web",
      "write:builtin:@weft/plugin-files",
    ]);
    expect(toolkit.prompt).toBe("");
    await toolkit.close();
    await toolkit.close();
  });

  it("drops the set or single built-ins, also from a parsed mcpConfig's builtins key", async () => {
    const none = await createToolkit({ builtins: false, logger: memoryLogger() });
    expect(none.tools).toEqual([]);
    const some = await createToolkit({ builtins: { tools: { bash: false, webfetch: false } }, logger: memoryLogger() });
    expect(some.tools.map((tool) => tool.name)).toEqual(BUILTINS.filter((name) => name !== "bash" && name !== "webfetch"));
    const fromMcp = await createToolkit({ mcpConfig: { mcpServers: {}, builtins: { tools: { question: false } } }, logger: memoryLogger() });
    expect(fromMcp.tools.map((tool) => tool.name)).toEqual(BUILTINS.filter((name) => name !== "question"));
    const optionWins = await createToolkit({ mcpConfig: { mcpServers: {}, builtins: false }, builtins: true, logger: memoryLogger() });
    expect(optionWins.tools.map((tool) => tool.name)).toEqual(BUILTINS);
    await Promise.all([none.close(), some.close(), fromMcp.close(), optionWins.close()]);
  });

  it("reads builtins as { enabled: false } or { disabled: [...] } too, and refuses a value of another shape naming the key", async () => {
    const off = await createToolkit({ builtins: { enabled: false }, logger: memoryLogger() });
    expect(off.tools).toEqual([]);
    const some = await createToolkit({ builtins: { disabled: ["bash", "todowrite"], tools: { webfetch: false } }, logger: memoryLogger() });
    expect(some.tools.map((tool) => tool.name)).toEqual(BUILTINS.filter((name) => !["bash", "todowrite", "webfetch"].includes(name)));
    await Promise.all([off.close(), some.close()]);
    await expect(createToolkit({ builtins: { disable: ["bash"] }, logger: memoryLogger() })).rejects.toMatchObject({
      code: "PLUGIN_OPTIONS_INVALID",
      message: expect.stringMatching(/^invalid options for the "builtins" key of @weft\/plugin-shell: /),
    });
  });

  it("answers a tool's pending request through the toolkit's waitFor when the host drives toolkit.execute", async () => {
    const asked: string[] = [];
    const confirm = deployTool((answer) => ({ output: `deployed (${answer.action}: ${String(answer.content)})` }));
    const waitFor = async (suspension: { message: string; toolName: string }) => {
      asked.push(`${suspension.toolName}: ${suspension.message}`);
      return { action: "accept" as const, content: "yes" };
    };
    const toolkit = await createToolkit({ builtins: false, extraTools: [confirm], waitFor, logger: memoryLogger() });
    expect(await toolkit.execute({ name: "deploy", arguments: {} })).toEqual({ output: "deployed (accept: yes)" });
    expect(asked).toEqual(["deploy: Deploy now?"]);
    // The kernel underneath leaves pending to its caller (the agent loop).
    expect((await toolkit.kernel.execute({ name: "deploy", arguments: {} })).pending).toEqual({ kind: "approval", message: "Deploy now?" });
    await toolkit.close();
  });

  it("delivers a decline and a failed wait to the tool too, so the source that asked is not left waiting", async () => {
    const heard: string[] = [];
    const confirm = deployTool((answer) => {
      heard.push(`${answer.action}${answer.reason ? ` (${answer.reason})` : ""}`);
      return { output: "the remote task is cancelled" };
    });
    const answers = [async () => ({ action: "decline" as const }), async (): Promise<never> => Promise.reject(new Error("the host went away"))];
    for (const waitFor of answers) {
      const toolkit = await createToolkit({ builtins: false, extraTools: [confirm], waitFor, logger: memoryLogger() });
      heard.push(JSON.stringify(await toolkit.execute({ name: "deploy", arguments: {} })));
      await toolkit.close();
    }
    expect(heard).toEqual([
      "decline",
      '{"output":"the user declined the request: Deploy now?","isError":true,"metadata":{"answer":"decline"}}',
      "cancel (timeout)",
      '{"output":"no answer to the request: Deploy now? (the host went away)","isError":true,"metadata":{"expired":true}}',
    ]);
  });

  it("assembles skills → built-ins → the host's tools: host shadows a built-in silently, first wins with a warning, disableTools last", async () => {
    const logger = memoryLogger();
    const toolkit = await createToolkit({
      skills: [dataSkill],
      extraTools: [appTool("bash"), appTool("skill_load"), appTool("deploy")],
      disableTools: ["webfetch", "grep"],
      logger,
    });
    expect(toolkit.tools.map((tool) => `${tool.name}:${tool.source.kind}`)).toEqual([
      "apply_patch:builtin",
      "bash:app",
      "deploy:app",
      "edit:builtin",
      "glob:builtin",
      "question:builtin",
      "read:builtin",
      "skill_execute_file:skill",
      "skill_load:skill",
      "skill_load_file:skill",
      "todowrite:builtin",
      "write:builtin",
    ]);
    expect(logger.warnings()).toEqual(['tool "skill_load" from the application dropped: skill collection skills already provides it']);
    expect(await toolkit.execute({ name: "bash", arguments: {} })).toEqual({ output: "app bash" });
    expect(toolkit.prompt).toContain("<name>release-notes</name>");
    expect((await toolkit.execute({ name: "grep", arguments: {} })).output).toMatch(/^unknown tool: grep\. Available tools: apply_patch, bash, deploy,/);
    await toolkit.close();
  });

  it("loads skills lazily from a provider the host publishes as a service", async () => {
    let calls = 0;
    const toolkit = await createToolkit({
      builtins: false,
      skills: [],
      services: {
        skillProvider: async () => {
          calls++;
          return [dataSkill];
        },
      },
      logger: memoryLogger(),
    });
    expect(toolkit.tools.map((tool) => tool.name)).toEqual(["skill_execute_file", "skill_load", "skill_load_file"]);
    expect(calls).toBe(1);
    await toolkit.close();
  });

  it("adapts the tool list to the OpenAI and Anthropic wires", async () => {
    const toolkit = await createToolkit({ builtins: false, extraTools: [appTool("deploy")], logger: memoryLogger() });
    const schema = { type: "object", properties: {} };
    expect(toolkit.toOpenAI()).toEqual([{ type: "function", function: { name: "deploy", description: "the application's deploy", parameters: schema } }]);
    expect(toolkit.toAnthropic()).toEqual([{ name: "deploy", description: "the application's deploy", input_schema: schema }]);
    expect(toolkit.mcpStatus()).toEqual([]);
    await toolkit.close();
  });

  it("says which package to install for a plugin it cannot find", async () => {
    await expect(createToolkit({ builtins: false, plugins: [{ name: "no-such-pack" }], logger: memoryLogger() })).rejects.toMatchObject({
      code: "PLUGIN_NOT_FOUND",
      message: expect.stringContaining("tried @weft/plugin-no-such-pack, weft-plugin-no-such-pack, no-such-pack. Install it: npm install @weft/plugin-no-such-pack"),
    });
  });

  it("fails past its deadline naming what had not finished, and stops everything it started", async () => {
    let pid = 0;
    const hanging = definePlugin({
      meta: { name: "hanging-server", version: "1.0.0", api: PLUGIN_API_VERSION },
      setup(api) {
        const child = spawn("sleep", ["60"], { stdio: "ignore" });
        pid = defined(child.pid);
        api.hooks.close.tap(() => void child.kill("SIGKILL"));
        api.hooks.tools.tap(() => new Promise<void>(() => {}));
      },
    });
    const started = Date.now();
    await expect(createToolkit({ builtins: false, plugins: [{ plugin: hanging }], deadline: 300, logger: memoryLogger() })).rejects.toMatchObject({
      code: "DEADLINE_EXCEEDED",
      message: "the toolkit did not load within its deadline of 300 ms (still loading: hanging-server); everything started was stopped",
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await waitForProcessExit(pid)).toBe(true);
  });

  it("passes the skill options through: filter, disabled names and the sample limit", async () => {
    const skills = [
      { name: "alpha", description: "First", content: "A", files: { "a.txt": "1", "b.txt": "2" } },
      { name: "beta", description: "Second", content: "B" },
      { name: "gamma", description: "Third", content: "C" },
    ];
    const toolkit = await createToolkit({ builtins: false, skills, skillsFilter: ["alpha", "beta"], disableSkills: ["beta"], skillSampleLimit: -1, logger: memoryLogger() });
    expect(toolkit.prompt).toContain("<name>alpha</name>");
    expect(toolkit.prompt).not.toContain("<name>beta</name>");
    expect(toolkit.prompt).not.toContain("<name>gamma</name>");
    const loaded = await toolkit.execute({ name: "skill_load", arguments: { skill_name: "alpha" } });
    expect(loaded.output).not.toContain("a.txt");
    await toolkit.close();
  });
});

/** A tool that asks "Deploy now?" and, run again with the host's answer, returns what `answered` makes of it. */
function deployTool(answered: (answer: PendingAnswer) => ToolResult) {
  return defineTool({
    name: "deploy",
    description: "Deploy after the user confirms",
    input: Type.Object({}),
    execute: (_args, ctx) => (ctx.answer ? answered(ctx.answer) : { output: "", pending: { kind: "approval", message: "Deploy now?" } }),
  });
}
