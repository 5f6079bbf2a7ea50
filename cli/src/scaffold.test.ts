import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { weft, WORKSPACE_MODULES } from "./test-fixtures/weft-process.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("weft init and weft new-plugin", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-scaffold-")));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("init writes a starter config that loads, and will not overwrite it", async () => {
    const project = path.join(dir, "project");
    await mkdir(project);
    expect(await weft(project, ["init"])).toEqual({ code: 0, stderr: "", stdout: `wrote ${project}/weft.config.yaml and ${project}/weft.config.schema.json\nnext: weft tools, then weft run "<prompt>"\n` });
    const config = await readFile(path.join(project, "weft.config.yaml"), "utf8");
    expect(config).toContain("model: anthropic/claude-sonnet-4-5\n");
    expect(config).toContain("builtins: true\n");
    const tools = await weft(project, ["tools", "--json"]);
    expect(tools.code).toBe(0);
    expect(JSON.parse(tools.stdout).map((tool: { name: string }) => tool.name)).toEqual([
      "apply_patch", "bash", "edit", "glob", "grep", "question", "read", "todowrite", "webfetch", "write",
    ]);
    expect(await weft(project, ["init"])).toEqual({ code: 1, stdout: "", stderr: `weft: ${project}/weft.config.yaml already exists; use --force to replace it\n` });
  });

  it("new-plugin scaffolds a pack whose own test passes", async () => {
    const result = await weft(dir, ["new-plugin", "greeter"]);
    expect(result.code).toBe(0);
    const pack = path.join(dir, "weft-plugin-greeter");
    expect(result.stdout).toBe(
      `created weft-plugin-greeter in ${pack}\n  package.json\n  tsconfig.json\n  src/index.ts\n  src/index.test.ts\n  README.md\nnext: cd weft-plugin-greeter && npm install && npm test\n`,
    );
    const manifest = JSON.parse(await readFile(path.join(pack, "package.json"), "utf8"));
    expect(manifest.peerDependencies).toEqual({ "@weft/sdk": "^0.1.0" });
    // Its schemas come from the sdk's one bundled typebox (a pack importing typebox itself loads ~370 files more).
    expect(manifest.dependencies).toBeUndefined();
    expect(await readFile(path.join(pack, "src/index.ts"), "utf8")).toMatch(/^import \{ Type \} from "@weft\/sdk\/typebox";$/m);
    // Stands in for `npm install`: the workspace has every package the scaffold names.
    await symlink(WORKSPACE_MODULES.replace(/\/$/, ""), path.join(pack, "node_modules"));
    await writeFile(path.join(pack, "vitest.config.mjs"), "export default { test: { include: ['src/**/*.test.ts'] } };\n");
    const { stdout } = await run(process.execPath, [path.join(WORKSPACE_MODULES, "vitest/vitest.mjs"), "run", "--reporter=json"], { cwd: pack });
    const report = JSON.parse(stdout.slice(stdout.indexOf("{")));
    expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({ passed: 1, failed: 0 });
    await run(process.execPath, [path.join(WORKSPACE_MODULES, "typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: pack });
    const built = await import(path.join(pack, "dist/index.js"));
    expect(built.default.meta).toEqual({ name: "weft-plugin-greeter", version: "0.1.0", api: 1 });
  }, 180_000); // a vitest run and a tsc build in child processes: minutes on a loaded machine
});

describe("weft skills", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-skills-")));
    await mkdir(path.join(project, "skills/git-release"), { recursive: true });
    await writeFile(path.join(project, "skills/git-release/SKILL.md"), "---\nname: git-release\ndescription: Draft release notes\n---\nRead the log.\n");
    await mkdir(path.join(project, "skills/Bad_Name"), { recursive: true });
    await writeFile(path.join(project, "skills/Bad_Name/SKILL.md"), "---\nname: Bad_Name\ndescription: Broken on purpose\n---\nBody\n");
    await writeFile(path.join(project, "weft.config.yaml"), "skills: [./skills]\ndisableSkills: [Bad_Name]\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("lists the project's skills", async () => {
    const result = await weft(project, ["skills", "list"]);
    expect(result).toEqual({
      code: 0,
      stderr: "",
      stdout: "SKILL        FILES  FOLDER              DESCRIPTION\ngit-release  0      skills/git-release  Draft release notes\n1 skills\n",
    });
  });

  it("validates a folder, exit 1 with every problem", async () => {
    expect(await weft(project, ["skills", "validate", "skills/git-release"])).toEqual({ code: 0, stderr: "", stdout: "skills/git-release: valid\n" });
    expect(await weft(project, ["skills", "validate", "skills/Bad_Name"])).toEqual({
      code: 1,
      stdout: "",
      stderr: 'skills/Bad_Name: name "Bad_Name" must be lowercase\nskills/Bad_Name: name "Bad_Name" may hold only letters, digits and hyphens, not "_"\n',
    });
  });
});
