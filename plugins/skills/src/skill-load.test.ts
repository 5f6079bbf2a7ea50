import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { createSkillCollection, type SkillCollectionOptions } from "./skill-collection.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

describe("skill_load", () => {
  let temp: TempFolder;
  let kernel: Kernel;
  beforeAll(async () => {
    temp = await tempFolder();
    const files: Record<string, string> = {};
    for (let index = 1; index <= 12; index++) files[`references/part-${String(index).padStart(2, "0")}.md`] = `Part ${index}`;
    await writeSkill(path.join(temp.path, "skills/big"), { body: "\n\n# Big\n\nRead the parts in order.\n\n", files });
    await writeSkill(path.join(temp.path, "skills/small"), { body: "Small body\n", files: { "scripts/run.sh": "#!/bin/sh\n", "a.txt": "a" } });
    await writeSkill(path.join(temp.path, "skills/bare"), { skillMd: '---\nname: "bare"\ndescription: No body, no files\n---\n' });
    kernel = await createTestKernel([], { logger: memoryLogger() });
  });
  afterAll(async () => {
    await kernel.close();
    await temp.remove();
  });

  async function load(skill: string, options: SkillCollectionOptions = {}) {
    const scope = kernel.scope("session");
    await createSkillCollection({ skillsDir: path.join(temp.path, "skills"), logger: memoryLogger(), ...options }).register(scope);
    try {
      return await kernel.execute({ name: "skill_load", arguments: { skill_name: skill } });
    } finally {
      await scope.dispose();
    }
  }

  const parts = (count: number) => Array.from({ length: count }, (_, index) => `- references/part-${String(index + 1).padStart(2, "0")}.md`);

  it("returns the body and the first 10 files by default (sample limit 0), saying how many more there are", async () => {
    for (const skillSampleLimit of [undefined, 0]) {
      expect(await load("big", { skillSampleLimit })).toEqual({
        output: [
          '<skill name="big">',
          "# Big",
          "",
          "Read the parts in order.",
          "",
          "Files in this skill (read one with skill_load_file, run one with skill_execute_file):",
          ...parts(10),
          "(2 more files not listed; skill_load_file with an unknown path lists them all)",
          "</skill>",
        ].join("\n"),
      });
    }
  });

  it("caps the list at a positive sample limit and omits it at -1", async () => {
    expect((await load("big", { skillSampleLimit: 3 })).output).toBe(
      [
        '<skill name="big">',
        "# Big",
        "",
        "Read the parts in order.",
        "",
        "Files in this skill (read one with skill_load_file, run one with skill_execute_file):",
        ...parts(3),
        "(9 more files not listed; skill_load_file with an unknown path lists them all)",
        "</skill>",
      ].join("\n"),
    );
    expect((await load("big", { skillSampleLimit: 11 })).output).toContain(`${parts(11).at(-1)}\n(1 more file not listed;`);
    expect((await load("big", { skillSampleLimit: -1 })).output).toBe('<skill name="big">\n# Big\n\nRead the parts in order.\n</skill>');
  });

  it("lists every file, sorted, when they fit, and nothing for a skill without body or files", async () => {
    expect((await load("small")).output).toBe(
      [
        '<skill name="small">',
        "Small body",
        "",
        "Files in this skill (read one with skill_load_file, run one with skill_execute_file):",
        "- a.txt",
        "- scripts/run.sh",
        "</skill>",
      ].join("\n"),
    );
    expect((await load("bare")).output).toBe('<skill name="bare">\n</skill>');
  });

  it("answers an unknown name with an error listing the available skills", async () => {
    expect(await load("nope")).toEqual({ output: "unknown skill: nope. Available skills: bare, big, small", isError: true });
    expect(await load("small", { disableSkills: ["small"] })).toEqual({ output: "unknown skill: small. Available skills: bare, big", isError: true });
  });

  it("loads a data skill with its files map", async () => {
    const scope = kernel.scope("data-session");
    await createSkillCollection({
      skills: [{ name: "notes", description: "Notes", content: "Write <notes> well.", files: { "z.md": "z", "guide/a.md": "a" } }],
    }).register(scope);
    expect((await kernel.execute({ name: "skill_load", arguments: { skill_name: "notes" } })).output).toBe(
      [
        '<skill name="notes">',
        "Write <notes> well.",
        "",
        "Files in this skill (read one with skill_load_file, run one with skill_execute_file):",
        "- guide/a.md",
        "- z.md",
        "</skill>",
      ].join("\n"),
    );
    await scope.dispose();
  });
});
