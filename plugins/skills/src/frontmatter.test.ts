import path from "node:path";
import { writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { parseSkillFile } from "./frontmatter.js";
import { loadSkillFolder } from "./skill.js";
import { InvalidFrontmatterError } from "./skill-errors.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

describe("parseSkillFile", () => {
  it("reads plain, quoted, folded and literal scalars", () => {
    const parsed = parseSkillFile(
      [
        "---",
        'name: "git-release"',
        "description: >",
        "  Draft release notes",
        "  and propose a version bump",
        "license: |",
        "  MIT",
        "  see LICENSE",
        "---",
        "",
        "# Release",
        "Steps.",
        "",
      ].join("\n"),
      "SKILL.md",
    );
    expect(parsed.name).toBe("git-release");
    expect(parsed.description).toBe("Draft release notes and propose a version bump");
    expect(parsed.fields.license).toBe("MIT\nsee LICENSE\n");
    expect(parsed.body).toBe("# Release\nSteps.");
  });

  it("keeps a literal description's line breaks and single-quoted text", () => {
    const parsed = parseSkillFile("---\nname: 'pdf-tools'\ndescription: |\n  Line one\n  Line two\n---\nBody", "SKILL.md");
    expect(parsed.name).toBe("pdf-tools");
    expect(parsed.description).toBe("Line one\nLine two");
    expect(parsed.body).toBe("Body");
  });

  it("ignores unknown keys whatever they hold", () => {
    const parsed = parseSkillFile(
      "---\nname: demo\ndescription: Demo\nmetadata:\n  author: me\nextra:\n  nested:\n    - [1, 2]\n    - { a: { b: c } }\nversion: 1.0\n---\nBody\n",
      "SKILL.md",
    );
    expect(parsed).toMatchObject({ name: "demo", description: "Demo", body: "Body" });
    expect(parsed.fields.extra).toEqual({ nested: [[1, 2], { a: { b: "c" } }] });
  });

  it("accepts CRLF line endings and a byte order mark", () => {
    const parsed = parseSkillFile("\uFEFF---\r\nname: demo\r\ndescription: >\r\n  Folded\r\n  text\r\n---\r\n# Title\r\nLine\r\n", "SKILL.md");
    expect(parsed).toMatchObject({ name: "demo", description: "Folded text", body: "# Title\nLine" });
  });

  it("reports invalid YAML with the file and its line", () => {
    const error = thrownBy(() => parseSkillFile("---\nname: demo\ndescription: Use it: when asked\n---\nBody", "/skills/demo/SKILL.md"));
    expect(error).toBeInstanceOf(InvalidFrontmatterError);
    expect(error).toMatchObject({ code: "SKILL_INVALID_FRONTMATTER", file: "/skills/demo/SKILL.md", line: 3 });
    expect(error.message).toBe("/skills/demo/SKILL.md:3: invalid YAML in frontmatter: Nested mappings are not allowed in compact mappings");
    expect(thrownBy(() => parseSkillFile("---\nname: demo\ndescription: Demo\nbroken: [unclosed\n---\n", "SKILL.md"))).toMatchObject({
      code: "SKILL_INVALID_FRONTMATTER",
    });
  });

  it("refuses a name or description that is not a scalar, naming its line", () => {
    expect(() => parseSkillFile("---\ndescription: Demo\nname:\n  - a\n  - b\n---\n", "SKILL.md")).toThrow(
      'SKILL.md:4: "name" must be a single text value, not a list or a map',
    );
    expect(() => parseSkillFile("---\nname: demo\ndescription: { text: x }\n---\n", "SKILL.md")).toThrow(
      'SKILL.md:3: "description" must be a single text value, not a list or a map',
    );
  });

  it("refuses a file without frontmatter and a frontmatter that is not a map", () => {
    expect(() => parseSkillFile("# Just markdown\n", "SKILL.md")).toThrow(
      "SKILL.md:1: no frontmatter: the file must start with a line --- then YAML with name and description, then a line ---",
    );
    expect(() => parseSkillFile("---\n- a\n- b\n---\n", "SKILL.md")).toThrow(
      "SKILL.md:2: the frontmatter must be a YAML map of fields (name: ..., description: ...)",
    );
  });
});

describe("loadSkillFolder", () => {
  let temp: TempFolder;
  beforeAll(async () => {
    temp = await tempFolder();
  });
  afterAll(() => temp.remove());

  it("names the file when name or description is missing", async () => {
    const noName = await writeSkill(path.join(temp.path, "no-name"), { skillMd: "---\ndescription: Demo\n---\n" });
    await expect(loadSkillFolder(noName, memoryLogger())).rejects.toThrow(`${noName}/SKILL.md: the frontmatter has no "name"; add name: <skill-name>`);
    const noDescription = await writeSkill(path.join(temp.path, "no-description"), { skillMd: "---\nname: no-description\n---\n" });
    await expect(loadSkillFolder(noDescription, memoryLogger())).rejects.toMatchObject({
      code: "SKILL_INVALID_FRONTMATTER",
      message: `${noDescription}/SKILL.md: the frontmatter has no "description"; add description: <what the skill does and when to use it>`,
    });
  });

  it("accepts skill.md when there is no SKILL.md, and prefers SKILL.md", async () => {
    const lower = await writeSkill(path.join(temp.path, "lower"));
    const { rename } = await import("node:fs/promises");
    await rename(path.join(lower, "SKILL.md"), path.join(lower, "skill.md"));
    expect(await loadSkillFolder(lower, memoryLogger())).toMatchObject({ name: "lower", files: [] });
    const both = await writeSkill(path.join(temp.path, "both"), { name: "from-upper" });
    await writeFile(path.join(both, "skill.md"), "---\nname: from-lower\ndescription: x\n---\n");
    expect(await loadSkillFolder(both, memoryLogger())).toMatchObject({ name: "from-upper", files: ["skill.md"] });
  });

  it("loads a description over 1024 characters with a warning", async () => {
    const logger = memoryLogger();
    const folder = await writeSkill(path.join(temp.path, "long"), { description: "x".repeat(1025) });
    expect((await loadSkillFolder(folder, logger)).description).toHaveLength(1025);
    expect(logger.warnings()).toEqual([
      `skill "long" (${folder}/SKILL.md): the description is longer than 1024 characters; shorten it, every session's prompt carries it`,
    ]);
  });

  it("reads the body and file list once: later edits on disk do not show", async () => {
    const folder = await writeSkill(path.join(temp.path, "frozen"), { body: "Old body\n", files: { "a.txt": "a" } });
    const skill = await loadSkillFolder(folder, memoryLogger());
    await writeSkill(folder, { body: "New body\n", files: { "b.txt": "b" } });
    expect(skill).toMatchObject({ body: "Old body", files: ["a.txt"] });
  });

  it("is SkillFolderNotFound for a missing folder or one without SKILL.md", async () => {
    await expect(loadSkillFolder(path.join(temp.path, "missing"), memoryLogger())).rejects.toMatchObject({
      code: "SKILL_FOLDER_NOT_FOUND",
      message: `skill folder not found: ${path.join(temp.path, "missing")}: check the path; a skill is a folder holding a SKILL.md`,
    });
    await expect(loadSkillFolder(temp.path, memoryLogger())).rejects.toThrow(`skill folder not found: ${temp.path}: the folder holds no SKILL.md`);
  });
});

function thrownBy(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected a throw");
}
