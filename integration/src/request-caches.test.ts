import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAgent, createKernel } from "@weft/core";
import { PLUGIN_API_VERSION, defineTool, definePlugin, memoryLogger, type Disposer, type Kernel, type PluginApi } from "@weft/sdk";
import { Type } from "@weft/sdk/typebox";
import { defined, startScriptedServer, type ScriptedServer } from "@weft/sdk/testing";
import openrouter from "@weft/plugin-openrouter";
import { createSkillCollection } from "@weft/plugin-skills";
import { chatCompletionsReply } from "./wire-replies.js";

/** What these tests read of a Chat Completions body. */
interface ChatBody {
  messages: { role: string; content: string }[];
  tools: { function: { name: string } }[];
}

async function writeSkill(root: string, name: string, description: string): Promise<string> {
  const folder = path.join(root, name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "SKILL.md"), `---\nname: ${name}\ndescription: ${description}\n---\nSteps for ${name}.\n`);
  return folder;
}

const toolNames = (body: ChatBody): string[] => body.tools.map((tool) => tool.function.name);
const systemOf = (body: ChatBody): string => defined(body.messages[0]).content;

// What a model call sends is built from what is kept between calls (the session's tool specs and
// their wire forms, the skills catalog and the joined prompt, the JSON of messages and tools). A change
// between two calls must reach the next request, and every body must read as its plain JSON encoding.
describe("what a request keeps between model calls", () => {
  let server: ScriptedServer;
  let kernel: Kernel;
  let dir: string;

  beforeEach(async () => {
    server = await startScriptedServer();
    kernel = createKernel({ logger: memoryLogger() });
    dir = await mkdtemp(path.join(tmpdir(), "weft-request-caches-"));
  });
  afterEach(async () => {
    await kernel.close();
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("gives way to a tool, a skill and a prompt section that changed between two model calls", async () => {
    await writeSkill(dir, "arithmetic", "How to add exactly.");
    const later = await mkdtemp(path.join(tmpdir(), "weft-request-caches-later-"));
    const weatherSkill = await writeSkill(later, "weather-report", "How to report the weather.");
    const skills = createSkillCollection({ skillsDir: dir, logger: memoryLogger() });
    let section = "Section one.";
    let api: PluginApi | undefined;
    let removeLate: Disposer | undefined;
    const lateTool = defineTool({ name: "late_tool", description: "Added mid-turn.", input: Type.Object({}), execute: () => ({ output: "late" }) });
    // A tool that changes the equipment while the turn runs: the next model call must see all of it.
    const grow = defineTool({
      name: "grow",
      description: "Changes what the model is given.",
      input: Type.Object({}),
      execute: async () => {
        removeLate = defined(api).tools.add(lateTool);
        await skills.add(weatherSkill);
        section = "Section two.";
        return { output: "grown" };
      },
    });
    const equipment = definePlugin({
      meta: { name: "equipment", version: "1.0.0", api: PLUGIN_API_VERSION },
      async setup(pluginApi) {
        api = pluginApi;
        await skills.register(pluginApi);
        pluginApi.hooks.prompt.tap((sections) => [...sections, section]);
      },
    });
    try {
      await kernel.use(openrouter, { compatible: { baseUrl: `${server.url}/v1`, contextWindow: 100_000 } });
      await kernel.use(equipment);
      server.reply(
        chatCompletionsReply({ toolCalls: [{ id: "call_1", name: "grow", arguments: {} }], usage: { prompt: 100, output: 5 } }),
        chatCompletionsReply({ text: "Grown.", usage: { prompt: 120, output: 5 } }),
        chatCompletionsReply({ text: "Done.", usage: { prompt: 140, output: 5 } }),
      );
      const model = await kernel.createModel("openai-compatible/local-model");
      const agent = createAgent({ model, kernel });
      await agent.startSession({ prompt: "Be brief.", tools: [grow] });
      expect((await agent.process("Grow, please.")).content).toBe("Grown.");
      defined(removeLate)();
      expect((await agent.process("And now?")).content).toBe("Done.");
      await agent.close();
    } finally {
      await rm(later, { recursive: true, force: true });
    }

    const raw = server.requests.map((request) => request.body);
    expect(raw).toHaveLength(3);
    // Byte for byte what JSON.stringify gives for the same body.
    for (const body of raw) expect(body).toBe(JSON.stringify(JSON.parse(body)));
    const [first, second, third] = server.requests.map((request) => request.json() as ChatBody);
    const skillTools = ["skill_execute_file", "skill_load", "skill_load_file"];
    expect(toolNames(defined(first))).toEqual(["grow", ...skillTools]);
    expect(toolNames(defined(second))).toEqual(["grow", "late_tool", ...skillTools]);
    expect(toolNames(defined(third))).toEqual(["grow", ...skillTools]);

    expect(systemOf(defined(first))).toMatch(/^Be brief\.\n\n[\s\S]*<name>arithmetic<\/name>[\s\S]*\n\nSection one\.$/);
    expect(systemOf(defined(first))).not.toContain("weather-report");
    expect(systemOf(defined(second))).toMatch(/<name>arithmetic<\/name>[\s\S]*<name>weather-report<\/name>[\s\S]*\n\nSection two\.$/);
    expect(systemOf(defined(third))).toBe(systemOf(defined(second)));
    // The messages of the first call go out again unchanged, after the new system prompt.
    expect(defined(second).messages.slice(1, 2)).toEqual(defined(first).messages.slice(1, 2));
  });
});
