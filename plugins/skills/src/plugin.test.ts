import path from "node:path";
import { mkdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION, defineTool, definePlugin, memoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { Type } from "typebox";
import skillsPlugin from "./index.js";
import { createSkillCollection } from "./skill-collection.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

const CATALOG = [
  "The skills below hold instructions for specific tasks. When a task matches a skill's description, call skill_load with its name before you start.",
  "<available_skills>",
  "<skill>",
  "<name>git-release</name>",
  "<description>Draft release notes and propose a version bump</description>",
  "</skill>",
  "<skill>",
  "<name>pdf-tools</name>",
  "<description>Fill &amp; merge PDF forms</description>",
  "</skill>",
  "</available_skills>",
].join("\n");

/** A pack that already has a tool named skill_load, to see the skills shadow it and give it back. */
const otherPack = definePlugin({
  meta: { name: "other-pack", version: "1.0.0", api: PLUGIN_API_VERSION },
  setup(api) {
    api.tools.add(
      defineTool({ name: "skill_load", description: "Someone else's tool", input: Type.Object({}), execute: () => ({ output: "other" }) }),
    );
  },
});

describe("@weft/plugin-skills", () => {
  let temp: TempFolder;
  beforeAll(async () => {
    temp = await tempFolder();
    await writeSkill(path.join(temp.path, "project/skills/git-release"), { description: "Draft release notes and propose a version bump" });
    await writeSkill(path.join(temp.path, "project/skills/pdf-tools"), { description: "Fill & merge PDF forms" });
    await mkdir(path.join(temp.path, "project/empty"));
  });
  afterAll(() => temp.remove());

  it("adds the catalog to the prompt and the three tools, from paths relative to baseDir", async () => {
    const kernel = await createTestKernel([[skillsPlugin, { paths: ["./skills"] }]], { baseDir: path.join(temp.path, "project"), logger: memoryLogger() });
    try {
      expect(await kernel.buildPrompt("You are helpful.")).toBe(`You are helpful.\n\n${CATALOG}`);
      const tools = kernel.tools.list();
      expect(tools.map((tool) => [tool.name, tool.source])).toEqual([
        ["skill_execute_file", { kind: "skill", id: "skills" }],
        ["skill_load", { kind: "skill", id: "skills" }],
        ["skill_load_file", { kind: "skill", id: "skills" }],
      ]);
      expect(Object.fromEntries(tools.map((tool) => [tool.name, { description: tool.description, inputSchema: tool.inputSchema }]))).toEqual({
        skill_load: {
          description:
            "Load a skill: its instructions and the list of files it ships. Call it when a task matches a skill's description in <available_skills>, before you start on the task.",
          inputSchema: {
            type: "object",
            properties: { skill_name: { type: "string", description: "The skill's name, as in <available_skills>" } },
            required: ["skill_name"],
          },
        },
        skill_load_file: {
          description:
            "Read a text file a skill ships (a reference, a template, a script's source), by its path relative to the skill folder as skill_load lists it.",
          inputSchema: {
            type: "object",
            properties: {
              skill_name: { type: "string", description: "The skill's name" },
              path: { type: "string", description: "The file's path relative to the skill folder, as skill_load lists it" },
            },
            required: ["skill_name", "path"],
          },
        },
        skill_execute_file: {
          description:
            "Run an executable file a skill ships (a script with a shebang line), by its path relative to the skill folder, with optional arguments. It runs from the skill folder without a shell and without input; the result is its exit status and its output (stdout and stderr together).",
          inputSchema: {
            type: "object",
            properties: {
              skill_name: { type: "string", description: "The skill's name" },
              path: { type: "string", description: "The file's path relative to the skill folder, as skill_load lists it" },
              args: { type: "array", items: { type: "string" }, description: "Arguments passed to the program as they are (no shell)" },
            },
            required: ["skill_name", "path"],
          },
        },
      });
      expect((await kernel.execute({ name: "skill_load", arguments: { skill_name: "pdf-tools" } })).output).toBe(
        '<skill name="pdf-tools">\n# pdf-tools\n\nDo the pdf-tools thing.\n</skill>',
      );
    } finally {
      await kernel.close();
    }
  });

  it("shadows a tool with a reserved name while active and restores it, with the catalog, when closed", async () => {
    const kernel = await createTestKernel([otherPack], { baseDir: path.join(temp.path, "project"), logger: memoryLogger() });
    try {
      const handle = await kernel.use(skillsPlugin, { paths: ["skills"] });
      expect(kernel.tools.get("skill_load")?.source).toEqual({ kind: "skill", id: "skills" });
      expect(await kernel.buildPrompt()).toBe(CATALOG);
      await handle.close();
      expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["skill_load"]);
      expect(await kernel.execute({ name: "skill_load", arguments: {} })).toEqual({ output: "other" });
      expect(await kernel.buildPrompt("base")).toBe("base");
    } finally {
      await kernel.close();
    }
  });

  it("gives a session scope the tools and catalog for its lifetime only", async () => {
    const kernel = await createTestKernel([otherPack], { logger: memoryLogger() });
    try {
      const collection = createSkillCollection({ skillsDir: path.join(temp.path, "project/skills"), logger: memoryLogger() });
      const session = kernel.scope("session-1");
      await collection.register(session);
      expect(kernel.tools.list().map((tool) => tool.name)).toEqual(["skill_execute_file", "skill_load", "skill_load_file"]);
      expect(await kernel.buildPrompt("base")).toBe(`base\n\n${CATALOG}`);
      await session.dispose();
      expect(kernel.tools.list().map((tool) => [tool.name, tool.description])).toEqual([["skill_load", "Someone else's tool"]]);
      expect(await kernel.buildPrompt("base")).toBe("base");
    } finally {
      await kernel.close();
    }
  });

  it("takes data skills in its options, filtered like the rest", async () => {
    const kernel = await createTestKernel(
      [[skillsPlugin, { paths: ["./skills"], skills: [{ name: "data-one", description: "From options", content: "Body", files: { "a.md": "A" } }], disableSkills: ["pdf-tools"] }]],
      { baseDir: path.join(temp.path, "project"), logger: memoryLogger() },
    );
    try {
      expect(await kernel.buildPrompt()).toContain("<name>data-one</name>\n<description>From options</description>\n</skill>\n<skill>\n<name>git-release</name>");
      expect(await kernel.buildPrompt()).not.toContain("pdf-tools");
      expect(await kernel.execute({ name: "skill_load_file", arguments: { skill_name: "data-one", path: "a.md" } })).toEqual({ output: "A" });
    } finally {
      await kernel.close();
    }
  });

  it("adds neither catalog nor tools when there are no skills", async () => {
    const kernel = await createTestKernel([[skillsPlugin, { paths: ["./empty"] }]], { baseDir: path.join(temp.path, "project"), logger: memoryLogger() });
    try {
      expect(kernel.tools.list()).toEqual([]);
      expect(await kernel.buildPrompt("base")).toBe("base");
    } finally {
      await kernel.close();
    }
  });

  it("validates its options and fails setup on a missing skills folder", async () => {
    const kernel = await createTestKernel([], { baseDir: path.join(temp.path, "project"), logger: memoryLogger() });
    try {
      await expect(kernel.use(skillsPlugin, { skillSampleLimit: -2 })).rejects.toMatchObject({ code: "PLUGIN_OPTIONS_INVALID" });
      await expect(kernel.use(skillsPlugin, { paths: ["./missing"] })).rejects.toMatchObject({
        code: "SKILL_FOLDER_NOT_FOUND",
        message: expect.stringContaining(`skill folder not found: ${path.join(temp.path, "project/missing")}: `),
      });
    } finally {
      await kernel.close();
    }
  });
});
