import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { weft } from "./test-fixtures/weft-process.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The CLI is driven as users run it: the built bin in a child process (the test command builds first).

const PACK = `export default {
  meta: { name: "echo-pack", version: "2.0.0", api: 1 },
  setup(api) {
    api.tools.add({
      name: "echo",
      description: "Echo the text back\\nSecond line is not listed",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      execute: async ({ text }) => (text === "fail" ? { output: "asked to fail", isError: true } : { output: text }),
    });
  },
};
`;

describe("weft (the command)", () => {
  let project: string;
  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-cli-")));
    await writeFile(path.join(project, "pack.js"), PACK);
    await writeFile(path.join(project, "weft.config.yaml"), "plugins:\n  - ./pack.js\n");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("lists plugins with version and origin", async () => {
    const result = await weft(project, ["plugins"]);
    expect(result).toEqual({ code: 0, stderr: "", stdout: `${project}/weft.config.yaml\nPLUGIN     VERSION  FROM\necho-pack  2.0.0    pack.js\n` });
  });

  it("lists tools with source, schema size and first description line", async () => {
    const schema = { type: "object", properties: { text: { type: "string" } }, required: ["text"] };
    const result = await weft(project, ["tools"]);
    expect(result.stdout).toBe(
      `TOOL  SOURCE          SCHEMA  DESCRIPTION\necho  pack:echo-pack  ${JSON.stringify(schema).length}      Echo the text back\n1 tools\n`,
    );
    const json = JSON.parse((await weft(project, ["tools", "--json"])).stdout);
    expect(json).toEqual([
      { name: "echo", source: "pack:echo-pack", schemaBytes: JSON.stringify(schema).length, description: "Echo the text back\nSecond line is not listed", inputSchema: schema },
    ]);
  });

  it("calls a tool and exits 1 on an error result", async () => {
    expect(await weft(project, ["call", "echo", '{"text":"hello"}'])).toEqual({ code: 0, stdout: "hello\n", stderr: "" });
    expect(await weft(project, ["call", "echo", '{"text":"fail"}'])).toEqual({ code: 1, stdout: "", stderr: "asked to fail\n" });
    expect(await weft(project, ["call", "nope"])).toEqual({ code: 1, stdout: "", stderr: "unknown tool: nope. Available tools: echo\n" });
  });

  it("explains usage mistakes with exit code 2", async () => {
    expect(await weft(project, ["call", "echo", "{not json"])).toMatchObject({ code: 2, stderr: expect.stringMatching(/^weft call: the arguments are not valid JSON: /) });
    expect(await weft(project, ["frobnicate"])).toMatchObject({ code: 2, stderr: expect.stringContaining('weft: unknown command "frobnicate"') });
  });

  it("reports a config error with file, line and column", async () => {
    const broken = await realpath(await mkdtemp(path.join(tmpdir(), "weft-cli-bad-")));
    await writeFile(path.join(broken, "weft.config.yaml"), "plugins:\n  - missing-pack\n");
    const result = await weft(broken, ["tools"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `weft: ${broken}/weft.config.yaml:2:5 (option plugins[0]): plugin "missing-pack" not found from ${broken}; tried @weft/plugin-missing-pack, weft-plugin-missing-pack, missing-pack. Install it: npm install @weft/plugin-missing-pack\n`,
    );
    await rm(broken, { recursive: true, force: true });
  });
});
