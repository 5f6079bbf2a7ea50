import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { validateSkill } from "./validate-skill.js";
import { tempFolder, writeSkill, type TempFolder } from "./test-fixtures/skill-folders.js";

describe("validateSkill", () => {
  let temp: TempFolder;
  beforeAll(async () => {
    temp = await tempFolder();
  });
  afterAll(() => temp.remove());

  const skill = (folder: string, frontmatter: string) => writeSkill(path.join(temp.path, folder), { skillMd: `---\n${frontmatter}\n---\nBody\n` });

  it("passes a skill that follows the specification", async () => {
    const folder = await skill(
      "pdf-tools-2",
      'name: pdf-tools-2\ndescription: Fill PDF forms\nlicense: MIT\ncompatibility: Needs python3\nallowed-tools: Bash Read\nmetadata:\n  author: me\n  version: "1.0"',
    );
    expect(await validateSkill(folder)).toEqual([]);
  });

  it("accepts lowercase letters of any script and compares with the folder after NFKC", async () => {
    expect(await validateSkill(await skill("技能", "name: 技能\ndescription: Chinese name"))).toEqual([]);
    expect(await validateSkill(await skill("über-tool", "name: über-tool\ndescription: German name"))).toEqual([]);
    expect(await validateSkill(await skill("русский", "name: русский\ndescription: Cyrillic name"))).toEqual([]);
    // U+FB01 (the "fi" ligature) is "fi" after NFKC, and "café" composed equals "cafe" + U+0301 after it.
    expect(await validateSkill(await skill("fix", "name: \uFB01x\ndescription: Ligature name"))).toEqual([]);
    expect(await validateSkill(await skill("cafe\u0301", "name: caf\u00e9\ndescription: Composed name"))).toEqual([]);
  });

  it("reports every problem with the name at once", async () => {
    expect(await validateSkill(await skill("folder", "name: -Bad_Name--\ndescription: x"))).toEqual([
      'name "-Bad_Name--" must be lowercase',
      'name "-Bad_Name--" may hold only letters, digits and hyphens, not "_"',
      'name "-Bad_Name--" must not start or end with a hyphen',
      'name "-Bad_Name--" must not hold consecutive hyphens',
      'name "-Bad_Name--" must match the folder name "folder"',
    ]);
    expect(await validateSkill(await skill("Ärger", "name: Ärger\ndescription: x"))).toEqual(['name "Ärger" must be lowercase']);
    const long = "a".repeat(65);
    expect(await validateSkill(await skill(long, `name: ${long}\ndescription: x`))).toEqual([`name "${long}" is 65 characters long; the limit is 64`]);
  });

  it("checks description, compatibility, field types and unexpected fields", async () => {
    const folder = await skill(
      "limits",
      `name: limits\ndescription: ${"d".repeat(1025)}\ncompatibility: ${"c".repeat(501)}\nlicense: [MIT]\nmetadata:\n  version: 1.0\nversion: 2\ntags: [a]`,
    );
    expect(await validateSkill(folder)).toEqual([
      "description is 1025 characters long; the limit is 1024",
      "compatibility is 501 characters long; the limit is 500",
      '"license" must be text',
      'metadata "version" must be text (quote the value: version: "...")',
      'unexpected field "version": the specification allows name, description, license, compatibility, metadata, allowed-tools (put extra data under metadata)',
      'unexpected field "tags": the specification allows name, description, license, compatibility, metadata, allowed-tools (put extra data under metadata)',
    ]);
  });

  it("reports missing fields, bad YAML and missing files", async () => {
    expect(await validateSkill(await skill("empty", "license: MIT"))).toEqual(['missing field "name"', 'missing field "description"']);
    const broken = await skill("broken", "name: broken\ndescription: [oops");
    expect(await validateSkill(broken)).toEqual([expect.stringMatching(new RegExp(`^${broken}/SKILL\\.md:\\d+: invalid YAML in frontmatter: `))]);
    const noFile = await skill("no-file", "name: no-file\ndescription: x");
    await rm(path.join(noFile, "SKILL.md"));
    expect(await validateSkill(noFile)).toEqual([`${noFile} holds no SKILL.md`]);
    expect(await validateSkill(path.join(temp.path, "nowhere"))).toEqual([`${path.join(temp.path, "nowhere")} is not a folder`]);
  });
});
