import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfinedRoot } from "./confined-root.js";

describe("ConfinedRoot", () => {
  let base: string;
  let root: ConfinedRoot;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-root-")));
    await mkdir(path.join(base, "root/sub"), { recursive: true });
    await writeFile(path.join(base, "root/sub/a.txt"), "a");
    await writeFile(path.join(base, "secret.txt"), "s");
    await symlink(path.join(base, "secret.txt"), path.join(base, "root/escape"));
    await symlink(path.join(base), path.join(base, "root/escape-dir"));
    await symlink("sub/a.txt", path.join(base, "root/inside-link"));
    await symlink("loop-b", path.join(base, "root/loop-a"));
    await symlink("loop-a", path.join(base, "root/loop-b"));
    root = await ConfinedRoot.open(path.join(base, "root"));
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("resolves paths inside, existing or not", async () => {
    expect(await root.resolve("sub/a.txt")).toBe(path.join(base, "root/sub/a.txt"));
    expect(await root.resolve("./sub//new/file.txt")).toBe(path.join(base, "root/sub/new/file.txt"));
    expect(await root.resolve("inside-link")).toBe(path.join(base, "root/sub/a.txt"));
    expect(await root.resolve("")).toBe(path.join(base, "root"));
  });

  it("refuses .., absolute paths, symlinks out and symlink loops", async () => {
    await expect(root.resolve("../secret.txt")).rejects.toThrow("path refused: ../secret.txt: \"..\" is not allowed; give a path inside the root");
    await expect(root.resolve("sub/../../secret.txt")).rejects.toMatchObject({ code: "PATH_REFUSED" });
    await expect(root.resolve(path.join(base, "root/sub/a.txt"))).rejects.toThrow("absolute paths are not allowed");
    await expect(root.resolve("escape")).rejects.toThrow("path refused: escape: it leads outside the root through a symlink");
    await expect(root.resolve("escape-dir/secret.txt")).rejects.toThrow("leads outside the root");
    await expect(root.resolve("escape-dir/new.txt")).rejects.toThrow("leads outside the root");
    await expect(root.resolve("loop-a")).rejects.toThrow("path refused: loop-a: it is a symlink loop");
  });

  it("refuses a root that does not exist", async () => {
    await expect(ConfinedRoot.open(path.join(base, "missing"))).rejects.toThrow(/root folder .*missing cannot be used/);
  });
});
