import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "./test-fixtures/weft-process.js";

// The packs issue's "done when": each pack loads from weft.config.yaml and shows its tools with schema sizes.
describe("the tool packs from weft.config.yaml", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-packs-")));
    await mkdir(path.join(project, "workspace"));
    await writeFile(path.join(project, "workspace/notes.md"), "one\ntwo\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("lists the shell, files and web packs' tools and runs them", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - shell\n  - files: { root: ./workspace }\n  - web: { backend: native }\n");
    const tools = JSON.parse((await weft(project, ["tools", "--json"])).stdout) as { name: string; source: string; schemaBytes: number }[];
    expect(tools.map((tool) => `${tool.name} ${tool.source}`)).toEqual([
      "file_delete pack:@weft/plugin-files",
      "file_edit pack:@weft/plugin-files",
      "file_list pack:@weft/plugin-files",
      "file_read pack:@weft/plugin-files",
      "file_search pack:@weft/plugin-files",
      "file_workdir pack:@weft/plugin-files",
      "file_write pack:@weft/plugin-files",
      "shell_run pack:@weft/plugin-shell",
      "web_crawl pack:@weft/plugin-web",
      "web_fetch pack:@weft/plugin-web",
    ]);
    expect(tools.every((tool) => tool.schemaBytes > 20)).toBe(true);
    expect(await weft(project, ["call", "shell_run", '{"command":"echo hi; exit 3"}'])).toEqual({ code: 0, stdout: "exit status: 3\n<output>\nhi\n</output>\n", stderr: "" });
    expect(await weft(project, ["call", "file_read", '{"path":"notes.md"}'])).toEqual({ code: 0, stdout: '<file lines="1-2 of 2">\none\ntwo\n</file>\n', stderr: "" });
    expect(await weft(project, ["call", "file_read", '{"path":"../weft.config.yaml"}'])).toMatchObject({ code: 1, stderr: expect.stringContaining('".." is not allowed') });
  });

  it("says what to install when the coding pack's uvx is missing", async () => {
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - mcp\n  - coding\n");
    const result = await weft(project, ["tools"], { PATH: "/usr/bin:/bin" });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `weft: ${project}/weft.config.yaml:3:5 (option plugins[1]): @weft/plugin-coding starts Serena with uvx, which is not on PATH: install uv (https://docs.astral.sh/uv/getting-started/installation/), or enable the pack with builtins: true for apply_patch alone\n`,
    );
  });
});
