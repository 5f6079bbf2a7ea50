import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "./test-fixtures/weft-process.js";

const RECORDER = fileURLToPath(new URL("./test-fixtures/record-modules.mjs", import.meta.url));

// What `weft tools` loads decides how long it takes to start (bench/src/cold-start.mjs). typebox's
// checker is for checking values: a start whose options passed last time (core's check cache) lists
// tools without it, and without the rest of typebox.
describe("the modules a start of weft tools loads", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-start-modules-")));
    await writeFile(
      path.join(dir, "pack.js"),
      `export default { meta: { name: "echo-pack", version: "1.0.0", api: 1 }, setup(api) { api.tools.add({ name: "echo", description: "Echo", inputSchema: { type: "object" }, execute: async () => ({ output: "" }) }); } };\n`,
    );
    await writeFile(path.join(dir, "weft.config.yaml"), "builtins: true\nplugins:\n  - ./pack.js\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function start(run: number): Promise<{ stdout: string; modules: string[] }> {
    const file = path.join(dir, `modules-${run}.txt`);
    await writeFile(file, "");
    const env = { WEFT_TRUST_ALL: "1", WEFT_CACHE_DIR: path.join(dir, "cache"), WEFT_TEST_MODULES: file, NODE_OPTIONS: `--import ${RECORDER}` };
    const outcome = await weft(dir, ["tools"], env);
    expect(outcome).toMatchObject({ code: 0, stdout: expect.stringContaining("echo") });
    return { stdout: outcome.stdout, modules: (await readFile(file, "utf8")).split("\n").filter(Boolean) };
  }

  it("loads typebox's checker for the first start's option checks, and no typebox at all once they passed", async () => {
    const first = await start(1);
    expect(first.modules.filter((url) => url.endsWith("/sdk/dist/typebox-lite.js"))).toHaveLength(1);
    const second = await start(2);
    expect(second.stdout).toBe(first.stdout);
    expect(second.modules).toContain(`${new URL("../../sdk/dist/index.js", import.meta.url)}`);
    expect(second.modules.filter((url) => /typebox/.test(url))).toEqual([]);
    // Nor a chunk of bundler helpers alone (what esmExternalRequirePlugin left in every package it ran for).
    expect(second.modules.filter((url) => /rolldown-runtime/.test(url))).toEqual([]);
  });
});
