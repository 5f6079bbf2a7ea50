import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadProject } from "@weft/core";
import { main } from "./main.js";

describe("weft trust", () => {
  let base: string;
  let env: NodeJS.ProcessEnv;
  const run = async (argv: string[]) => {
    const stdout = new PassThrough();
    const chunks: string[] = [];
    stdout.on("data", (chunk) => chunks.push(String(chunk)));
    const code = await main(["trust", ...argv], { stdout, stderr: new PassThrough(), cwd: base, env });
    return { code, out: chunks.join("") };
  };

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-cli-trust-")));
    env = { WEFT_CONFIG_DIR: path.join(base, "config") };
    await writeFile(path.join(base, "pack.js"), 'export default { meta: { name: "pack", version: "1.0.0", api: 1 }, setup() {} };\n');
    await writeFile(path.join(base, "weft.config.yaml"), "plugins:\n  - ./pack.js\n");
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("refuses an untrusted config, accepts it after weft trust, lists and revokes it", async () => {
    const file = path.join(base, "weft.config.yaml");
    await expect(loadProject({ cwd: base, trust: { env } })).rejects.toMatchObject({ code: "PROJECT_UNTRUSTED" });
    expect(await run([])).toEqual({ code: 0, out: `trusted ${file} as it is now:\n  - plugin ./pack.js (code in the project)\n` });
    const project = await loadProject({ cwd: base, trust: { env } });
    await project.toolkit.close();
    expect((await run(["--list"])).out).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}  \\(trusted \\d{4}-`));
    expect(await run(["--revoke"])).toEqual({ code: 0, out: `revoked trust in ${file}\n` });
    expect(await run(["--list"])).toEqual({ code: 0, out: "no trusted configs\n" });
    await expect(loadProject({ cwd: base, trust: { env } })).rejects.toMatchObject({ code: "PROJECT_UNTRUSTED" });
  });
});
