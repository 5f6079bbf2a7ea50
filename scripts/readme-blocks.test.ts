import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script shared with scripts/tarball-install.mjs, without declarations
import { runnableBlocks } from "./readme-blocks.mjs";
// @ts-expect-error: as above
import { publishablePackages, ROOT } from "./workspace-packages.mjs";

// Docs that run: every README block marked runnable is executed as written, on the built packages,
// in a folder outside the workspace that sees the workspace's node_modules as its own.
const run = promisify(execFile);
const readmes: string[] = ["README.md", ...publishablePackages().map(({ dir }: { dir: string }) => `${dir}/README.md`)].filter((file) => existsSync(path.join(ROOT, file)));
const blocks = readmes.flatMap((file) => runnableBlocks(path.join(ROOT, file)).map((block: { code: string; line: number; expected?: string }) => ({ file, ...block })));

describe("README blocks marked runnable", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-readme-")));
    await symlink(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("include the root README's library example, core's first example and the batteries-included package's", () => {
    expect(blocks.some((block) => block.file === "README.md")).toBe(true);
    expect(blocks.find((block) => block.file === "core/README.md")?.line).toBe(6);
    expect(blocks.some((block) => block.file === "toolkit/README.md")).toBe(true);
  });

  it.each(blocks)("$file:$line runs as written", async ({ file, line, code, expected }) => {
    const script = path.join(dir, `${file.replace(/\W/g, "_")}-${line}.mjs`);
    await writeFile(script, code);
    const { stdout } = await run(process.execPath, [script], { cwd: dir, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    if (expected !== undefined) expect(stdout).toBe(expected);
  });
});
