import { mkdtemp, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { weft } from "./test-fixtures/weft-process.js";

// The option checks a start passed are kept for the next (core's check-cache.ts): a plugin edited
// between two starts of the same config is checked again, in a new process as a user runs it.
const plugin = (maximum: number) => `export default {
  meta: { name: "levels", version: "1.0.0", api: 1 },
  options: { type: "object", properties: { level: { type: "integer", maximum: ${maximum} } } },
  setup(api) {
    api.tools.add({ name: "level", description: "The level", inputSchema: { type: "object" }, execute: async () => ({ output: "" }) });
  },
};
`;

describe("weft tools with the cache of passed option checks", () => {
  let dir: string;
  let cache: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-check-cache-cli-")));
    cache = path.join(dir, "cache");
    await writeFile(path.join(dir, "weft.config.yaml"), "plugins:\n  - ./levels.js: { level: 3 }\n");
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("checks a plugin changed since the last start, and names the option's line", async () => {
    const env = { WEFT_CACHE_DIR: cache };
    await writeFile(path.join(dir, "levels.js"), plugin(5));
    expect(await weft(dir, ["tools"], env)).toMatchObject({ code: 0, stdout: expect.stringContaining("level") });
    expect(await readdir(path.join(cache, "checks"))).toHaveLength(1);
    await writeFile(path.join(dir, "levels.js"), plugin(2));
    expect(await weft(dir, ["tools"], env)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`${dir}/weft.config.yaml:2:27 (option plugins[0]../levels.js.level): invalid option for levels: must be <= 2`),
    });
    await writeFile(path.join(dir, "levels.js"), plugin(5));
    expect(await weft(dir, ["tools"], env)).toMatchObject({ code: 0 });
  });
});
