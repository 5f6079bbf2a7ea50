import path from "node:path";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { createSkillCollection, listSkills } from "./skill-collection.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

describe("skill collection", () => {
  let temp: TempFolder;
  let skills: string;
  beforeAll(async () => {
    temp = await tempFolder();
    skills = path.join(temp.path, "skills");
    await writeSkill(path.join(skills, "git-release"), { description: "Draft release notes & propose a <version> bump" });
    await writeSkill(path.join(skills, "team-a/pdf-tools"), { files: { "nested/SKILL.md": "not a separate skill" } });
    await writeSkill(path.join(skills, "team-a/deep/er/csv-clean"));
    await writeSkill(path.join(skills, "node_modules/hidden-dep"));
    await writeSkill(path.join(skills, ".git/hidden-git"));
    await writeFile(path.join(skills, "team-a/deep/notes.txt"), "not a skill");
    // A cycle: team-a/deep/loop points back at the root; each folder is searched once.
    await symlink(skills, path.join(skills, "team-a/deep/loop"));
    // A symlinked skill folder from elsewhere is followed.
    await writeSkill(path.join(temp.path, "elsewhere/linked-skill"));
    await symlink(path.join(temp.path, "elsewhere/linked-skill"), path.join(skills, "linked"));
    await writeFile(path.join(skills, "broken-skill.md"), "");
    await writeSkill(path.join(skills, "zz-broken"), { skillMd: "---\nname: zz: broken\ndescription: x\n---\n" });
  });
  afterAll(() => temp.remove());

  it("finds skill folders recursively, follows symlinks once, skips node_modules and .git, and sorts by name", async () => {
    const logger = memoryLogger();
    const listed = await listSkills({ skillsDir: skills, logger });
    expect(listed.map((skill) => skill.name)).toEqual(["csv-clean", "git-release", "linked-skill", "pdf-tools"]);
    expect(listed.find((skill) => skill.name === "linked-skill")).toMatchObject({ kind: "folder", location: path.join(temp.path, "elsewhere/linked-skill") });
    expect(listed.find((skill) => skill.name === "pdf-tools")?.files).toEqual(["nested/SKILL.md"]);
    const broken = path.join(skills, "zz-broken");
    expect(logger.warnings()).toEqual([
      `skills: skipped ${broken}: ${broken}/SKILL.md:2: invalid YAML in frontmatter: Nested mappings are not allowed in compact mappings`,
    ]);
  });

  it("finds a skill once when roots are nested, in either order", async () => {
    for (const roots of [[skills, path.join(skills, "team-a")], [path.join(skills, "team-a"), skills]]) {
      const logger = memoryLogger();
      const names = (await listSkills({ skillsDir: roots, logger })).map((skill) => skill.name);
      expect(names).toEqual(["csv-clean", "git-release", "linked-skill", "pdf-tools"]);
      expect(logger.warnings().filter((warning) => warning.includes("duplicate"))).toEqual([]);
    }
  });

  it("renders the catalog once until a skill is added, and a catalog asked for right after an add includes it", async () => {
    const collection = createSkillCollection({ skills: [{ name: "zebra", description: "Last", content: "z" }], logger: memoryLogger() });
    const first = collection.catalog();
    // Every model call's prompt asks for it: the same text, not rendered again.
    expect(collection.catalog()).toBe(first);
    const added = collection.add(path.join(skills, "git-release"));
    const after = collection.catalog();
    expect(after).not.toBe(first);
    expect(await first).not.toContain("git-release");
    expect(await after).toContain("<name>git-release</name>");
    await added;
    expect(collection.catalog()).toBe(after);
  });

  it("renders the catalog sorted by code point with descriptions XML-escaped", async () => {
    const collection = createSkillCollection({
      skills: [
        { name: "zebra", description: "Last", content: "z" },
        { name: "\u{1F600}-emoji", description: "Astral", content: "e" },
        { name: "\uFF41-fullwidth", description: "BMP above the surrogates", content: "f" },
        { name: "Alpha", description: "Upper case sorts first", content: "a" },
      ],
      logger: memoryLogger(),
    });
    expect((await collection.list()).map((skill) => skill.name)).toEqual(["Alpha", "zebra", "\uFF41-fullwidth", "\u{1F600}-emoji"]);
    const folderCatalog = await createSkillCollection({ skillsDir: path.join(skills, "git-release"), logger: memoryLogger() }).catalog();
    expect(folderCatalog).toBe(
      [
        "The skills below hold instructions for specific tasks. When a task matches a skill's description, call skill_load with its name before you start.",
        "<available_skills>",
        "<skill>",
        "<name>git-release</name>",
        "<description>Draft release notes &amp; propose a &lt;version&gt; bump</description>",
        "</skill>",
        "</available_skills>",
      ].join("\n"),
    );
    expect(await createSkillCollection({ logger: memoryLogger() }).catalog()).toBe("");
  });

  it("applies an allowlist, a true/false map and disableSkills, warning about names that match nothing", async () => {
    const names = async (options: object, logger = memoryLogger()) =>
      (await listSkills({ skillsDir: skills, logger, ...options })).map((skill) => skill.name);
    expect(await names({ skillsFilter: ["pdf-tools", "git-release"] })).toEqual(["git-release", "pdf-tools"]);
    expect(await names({ skillsFilter: { "pdf-tools": true, "git-release": false } })).toEqual(["pdf-tools"]);
    expect(await names({ skillsFilter: [] })).toEqual(["csv-clean", "git-release", "linked-skill", "pdf-tools"]);
    expect(await names({ skillsFilter: { "pdf-tools": false } })).toEqual(["csv-clean", "git-release", "linked-skill"]);
    expect(await names({ disableSkills: ["csv-clean"], skillsFilter: ["csv-clean", "git-release"] })).toEqual(["git-release"]);
    const logger = memoryLogger();
    expect(await names({ skillsFilter: ["git-release", "no-such-skill"], disableSkills: ["also-missing"] }, logger)).toEqual(["git-release"]);
    expect(logger.warnings().filter((warning) => warning.includes("filter"))).toEqual([
      'skills: the filter names "no-such-skill", which matches no skill',
      'skills: the filter names "also-missing", which matches no skill',
    ]);
  });

  it("keeps the first of two skills with one name and warns naming both places", async () => {
    const other = await writeSkill(path.join(temp.path, "other/git-release"), { description: "The second one" });
    const logger = memoryLogger();
    const collection = createSkillCollection({
      skillsDir: path.join(skills, "git-release"),
      skills: [{ name: "git-release", description: "Data copy", content: "x" }],
      logger,
    });
    await collection.add(other);
    await collection.add(path.join(skills, "git-release")); // the same folder again: silently one
    expect(await collection.list()).toEqual([
      expect.objectContaining({ name: "git-release", description: "Draft release notes & propose a <version> bump", kind: "folder" }),
    ]);
    expect(logger.warnings()).toEqual([
      `skills: duplicate skill "git-release": keeping the one from ${path.join(skills, "git-release")}, ignoring the one from skills option`,
      `skills: duplicate skill "git-release": keeping the one from ${path.join(skills, "git-release")}, ignoring the one from ${other}`,
    ]);
  });

  it("takes skills as data and from a provider called once, lazily", async () => {
    let calls = 0;
    const collection = createSkillCollection({
      skills: [{ name: "from-data", description: "Given as data", content: "Use it.", files: { "./docs//guide.md": "Guide", "b.txt": "B" } }],
      skillProvider: async () => {
        calls += 1;
        return [{ name: "from-provider", description: "Provided", content: "Provided body" }];
      },
      logger: memoryLogger(),
    });
    expect(calls).toBe(0);
    expect(await collection.list()).toEqual([
      { name: "from-data", description: "Given as data", location: "skills option", kind: "data", files: ["b.txt", "docs/guide.md"] },
      { name: "from-provider", description: "Provided", location: "skill provider", kind: "data", files: [] },
    ]);
    await collection.catalog();
    await collection.list();
    expect(calls).toBe(1);
  });

  it("turns a provider that throws, and malformed data skills, into warnings", async () => {
    const logger = memoryLogger();
    const collection = createSkillCollection({
      skills: [{ name: "ok", description: "Fine", content: "x" }, { name: "no-description", content: "x" } as never],
      skillProvider: () => {
        throw new Error("registry offline");
      },
      logger,
    });
    expect((await collection.list()).map((skill) => skill.name)).toEqual(["ok"]);
    expect(logger.warnings()).toEqual([
      'skills: skipped a skill: skills option: a skill needs a "description" text',
      "skills: the skill provider failed, its skills are left out: registry offline",
    ]);
  });

  it("adds Claude skills by folder name and refuses names that step outside", async () => {
    const claude = path.join(temp.path, "claude-skills");
    await writeSkill(path.join(claude, "my-skill"));
    const collection = createSkillCollection({ claudeSkillsDir: claude, logger: memoryLogger() });
    expect(await collection.addClaudeSkill("my-skill")).toMatchObject({ name: "my-skill", location: path.join(claude, "my-skill") });
    for (const bad of ["../x", "..", "a/b", "/etc", ""]) {
      await expect(collection.addClaudeSkill(bad)).rejects.toMatchObject({ code: "SKILL_INVALID_NAME" });
    }
    await expect(collection.addClaudeSkill("../x")).rejects.toThrow(
      'invalid skill name "../x": it must be a single folder name in ~/.claude/skills, without /, \\ or ..',
    );
    await expect(collection.addClaudeSkill("not-there")).rejects.toMatchObject({
      code: "SKILL_FOLDER_NOT_FOUND",
      message: `skill folder not found: ${path.join(claude, "not-there")}: check the path; a skill is a folder holding a SKILL.md`,
    });
    expect((await collection.list()).map((skill) => skill.name)).toEqual(["my-skill"]);
  });

  it("is SkillFolderNotFound for a skills root that does not exist", async () => {
    const missing = path.join(temp.path, "no-such-root");
    await expect(listSkills({ skillsDir: missing, logger: memoryLogger() })).rejects.toMatchObject({ code: "SKILL_FOLDER_NOT_FOUND" });
    await mkdir(path.join(temp.path, "empty-root"));
    expect(await listSkills({ skillsDir: path.join(temp.path, "empty-root"), logger: memoryLogger() })).toEqual([]);
  });
});
