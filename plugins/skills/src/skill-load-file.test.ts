import path from "node:path";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type Kernel, type Scope } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { createSkillCollection } from "./skill-collection.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

describe("skill_load_file", () => {
  let temp: TempFolder;
  let kernel: Kernel;
  let scope: Scope;
  let skill: string;
  beforeAll(async () => {
    temp = await tempFolder();
    await writeFile(path.join(temp.path, "secret.txt"), "TOP SECRET");
    await mkdir(path.join(temp.path, "secret-folder"));
    await writeFile(path.join(temp.path, "secret-folder/key.txt"), "KEY");
    skill = await writeSkill(path.join(temp.path, "skills/docs"), {
      files: { "guide.md": "# Guide\r\nÜnïcode text\n", "references/api.md": "API" },
    });
    await writeFile(path.join(skill, "logo.png"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    await writeFile(path.join(skill, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    await writeFile(path.join(skill, "big.txt"), "x".repeat(1024 * 1024 + 1));
    await symlink(path.join(temp.path, "secret.txt"), path.join(skill, "escape.txt"));
    await symlink(path.join(temp.path, "secret-folder"), path.join(skill, "escape-folder"));
    await symlink("references/api.md", path.join(skill, "inside-link.md"));
    await symlink(skill, path.join(skill, "references/loop"));
    kernel = await createTestKernel([], { logger: memoryLogger() });
    scope = kernel.scope("session");
    await createSkillCollection({
      skillsDir: path.join(temp.path, "skills"),
      skills: [{ name: "data-skill", description: "Data", content: "Body", files: { "notes/a.md": "Note A" } }],
      logger: memoryLogger(),
    }).register(scope);
  });
  afterAll(async () => {
    await kernel.close();
    await temp.remove();
  });

  const read = (skill_name: string, file: string) => kernel.execute({ name: "skill_load_file", arguments: { skill_name, path: file } });
  const listed = "big.txt, guide.md, inside-link.md, latin1.txt, logo.png, references/api.md";

  it("lists only files inside the folder: symlinks out (file or folder) and loops are left out", async () => {
    const { output } = await kernel.execute({ name: "skill_load", arguments: { skill_name: "docs" } });
    expect(output).toContain(["- big.txt", "- guide.md", "- inside-link.md", "- latin1.txt", "- logo.png", "- references/api.md", "</skill>"].join("\n"));
    expect(output).not.toContain("escape");
    expect(output).not.toContain(temp.path);
  });

  it("returns a file's text as it is, also through a symlink that stays inside and with ./ or doubled slashes", async () => {
    expect(await read("docs", "guide.md")).toEqual({ output: "# Guide\r\nÜnïcode text\n" });
    expect(await read("docs", "./references//api.md")).toEqual({ output: "API" });
    expect(await read("docs", "inside-link.md")).toEqual({ output: "API" });
  });

  it("refuses .., absolute paths and symlinks that lead outside, listing the skill's files", async () => {
    for (const requested of ["../../secret.txt", "escape.txt", "escape-folder/key.txt", path.join(skill, "guide.md"), "references/loop/guide.md", "missing.md"]) {
      expect(await read("docs", requested)).toEqual({ output: `no file ${requested} in skill docs. Files in this skill: ${listed}`, isError: true });
    }
  });

  it("refuses a listed file that became a symlink out after the skill was added", async () => {
    const folder = await writeSkill(path.join(temp.path, "later/swapped"), { files: { "a.txt": "a" } });
    const swapScope = kernel.scope("swap");
    await createSkillCollection({ skillsDir: path.join(temp.path, "later"), logger: memoryLogger() }).register(swapScope);
    await rm(path.join(folder, "a.txt"));
    await symlink(path.join(temp.path, "secret.txt"), path.join(folder, "a.txt"));
    expect(await read("swapped", "a.txt")).toEqual({ output: "path refused: a.txt: it leads outside the root through a symlink", isError: true });
    await swapScope.dispose();
  });

  it("refuses binary and oversized files with their size and type", async () => {
    expect(await read("docs", "logo.png")).toEqual({
      output: "logo.png is a binary file (image/png, 12 bytes); skill_load_file reads text files only",
      isError: true,
    });
    expect(await read("docs", "latin1.txt")).toEqual({
      output: "latin1.txt is a binary file (application/octet-stream, 4 bytes); skill_load_file reads text files only",
      isError: true,
    });
    expect(await read("docs", "big.txt")).toEqual({ output: "big.txt is too large to load (1048577 bytes; the limit is 1048576)", isError: true });
  });

  it("reads a data skill's files from its map", async () => {
    expect(await read("data-skill", "notes/a.md")).toEqual({ output: "Note A" });
    expect(await read("data-skill", "notes/b.md")).toEqual({ output: "no file notes/b.md in skill data-skill. Files in this skill: notes/a.md", isError: true });
  });

  it("answers an unknown skill with the available names", async () => {
    expect(await read("nope", "a.md")).toEqual({ output: "unknown skill: nope. Available skills: data-skill, docs", isError: true });
  });
});
