import { mkdir, mkdtemp, readFile, readdir, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import filesPlugin from "./index.js";

/** Every way out of the root, and the refusal each must produce. */
const attacks = (base: string) => [
  { path: "../secret.txt", refusal: 'path refused: ../secret.txt: ".." is not allowed; give a path inside the root' },
  { path: "sub/../../secret.txt", refusal: 'path refused: sub/../../secret.txt: ".." is not allowed; give a path inside the root' },
  { path: path.join(base, "secret.txt"), refusal: `path refused: ${path.join(base, "secret.txt")}: absolute paths are not allowed; give a path relative to the root` },
  // Absolute paths are refused even when they point inside the root.
  { path: path.join(base, "root/sub/a.txt"), refusal: `path refused: ${path.join(base, "root/sub/a.txt")}: absolute paths are not allowed; give a path relative to the root` },
  { path: "escape", refusal: "path refused: escape: it leads outside the root through a symlink" },
  { path: "escape-dir/secret.txt", refusal: "path refused: escape-dir/secret.txt: it leads outside the root through a symlink" },
  { path: "escape-dir/new.txt", refusal: "path refused: escape-dir/new.txt: it leads outside the root through a symlink" },
  { path: "loop-a", refusal: "path refused: loop-a: it is a symlink loop" },
];

const calls: Record<string, (target: string) => Record<string, unknown>> = {
  file_read: (target) => ({ path: target }),
  file_write: (target) => ({ path: target, content: "pwned" }),
  file_edit: (target) => ({ path: target, old_string: "secret", new_string: "pwned" }),
  file_list: (target) => ({ path: target }),
  file_delete: (target) => ({ path: target }),
  file_search: (target) => ({ pattern: "secret", path: target }),
};

const builtinCalls: Record<string, (target: string) => Record<string, unknown>> = {
  read: (target) => ({ path: target }),
  write: (target) => ({ path: target, content: "pwned" }),
  edit: (target) => ({ path: target, old_string: "secret", new_string: "pwned" }),
  grep: (target) => ({ pattern: "secret", path: target }),
  glob: (target) => ({ pattern: "**", path: target }),
};

describe("file tools confinement", () => {
  let base: string;
  let pack: Kernel;
  let builtins: Kernel;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-files-jail-")));
    await mkdir(path.join(base, "root/sub"), { recursive: true });
    await writeFile(path.join(base, "root/sub/a.txt"), "inside\n");
    await writeFile(path.join(base, "secret.txt"), "secret\n");
    await symlink(path.join(base, "secret.txt"), path.join(base, "root/escape"));
    await symlink(base, path.join(base, "root/escape-dir"));
    await symlink("loop-b", path.join(base, "root/loop-a"));
    await symlink("loop-a", path.join(base, "root/loop-b"));
    pack = await createTestKernel([[filesPlugin, { root: "root" }]], { baseDir: base });
    builtins = await createTestKernel([[filesPlugin, { root: "root", builtins: true }]], { baseDir: base });
  });
  afterAll(async () => {
    await pack.close();
    await builtins.close();
    await rm(base, { recursive: true, force: true });
  });

  for (const [kernelName, table] of [
    ["pack", calls],
    ["builtins", builtinCalls],
  ] as const) {
    it(`refuses every path that leads out of the root (${kernelName})`, async () => {
      const kernel = kernelName === "pack" ? pack : builtins;
      for (const [tool, args] of Object.entries(table)) {
        for (const attack of attacks(base)) {
          const result = await kernel.execute({ name: tool, arguments: args(attack.path) });
          expect({ tool, result }).toEqual({ tool, result: { output: attack.refusal, isError: true } });
        }
      }
      expect(await readFile(path.join(base, "secret.txt"), "utf8")).toBe("secret\n");
      expect((await readdir(base)).sort()).toEqual(["root", "secret.txt"]);
      expect(await readFile(path.join(base, "root/sub/a.txt"), "utf8")).toBe("inside\n");
    });
  }

  it("lists a symlink that leads out as a link and never follows it in a search", async () => {
    const listing = await pack.execute({ name: "file_list", arguments: {} });
    expect(listing.output).toBe(
      [
        `<link name="escape" path="${base}/root/escape"/>`,
        `<link name="escape-dir" path="${base}/root/escape-dir"/>`,
        `<link name="loop-a" path="${base}/root/loop-a"/>`,
        `<link name="loop-b" path="${base}/root/loop-b"/>`,
        `<dir name="sub" path="${base}/root/sub"/>`,
      ].join("\n"),
    );
    const search = await pack.execute({ name: "file_search", arguments: { pattern: "secret|inside" } });
    expect(search.output).toBe('<search matches="1" files="1">\n<match path="sub/a.txt" line="1">inside</match>\n</search>');
  });
});
