import { execFileSync, spawn } from "node:child_process";
import { link, mkdir, mkdtemp, readFile, readdir, realpath, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import filesPlugin from "./index.js";

const SWAPPER = fileURLToPath(new URL("./test-fixtures/entry-swapper.mjs", import.meta.url));
const SWAPS = 10_000;

describe("file tools hardening", () => {
  let base: string;
  let root: string;
  let kernel: Kernel;
  let socket: Server;
  const call = (name: string, args: Record<string, unknown>) => kernel.execute({ name, arguments: args });

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-files-hard-")));
    root = path.join(base, "root");
    await mkdir(path.join(base, "outside"), { recursive: true });
    await mkdir(root);
    await writeFile(path.join(base, "secret.txt"), "SECRET\n");
    await writeFile(path.join(base, "outside/file.txt"), "SECRET\n");
    await writeFile(path.join(root, "ok.txt"), "fine\n");
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    execFileSync("mknod", [path.join(root, "null"), "c", "1", "3"]);
    socket = createServer();
    await new Promise<void>((resolve) => socket.listen(path.join(root, "sock"), resolve));
    kernel = await createTestKernel([[filesPlugin, { root }]]);
  });
  afterAll(async () => {
    await kernel?.close();
    await new Promise((resolve) => socket?.close(resolve));
    await rm(base, { recursive: true, force: true });
  });

  it("refuses a FIFO, a socket and a device without blocking, and ordinary reads still work", async () => {
    for (let i = 0; i < 8; i += 1) {
      expect(await call("file_read", { path: "pipe" })).toEqual({
        output: "path refused: pipe: it is a named pipe (FIFO); only regular files can be read or written",
        isError: true,
      });
    }
    expect((await call("file_read", { path: "sock" })).output).toBe("path refused: sock: it is a socket; only regular files can be read or written");
    expect((await call("file_read", { path: "null" })).output).toBe("path refused: null: it is a device; only regular files can be read or written");
    expect((await call("file_write", { path: "pipe", content: "x" })).output).toBe(
      "path refused: pipe: it is a named pipe (FIFO); only regular files can be read or written",
    );
    expect((await call("file_read", { path: "ok.txt" })).output).toBe('<file lines="1-1 of 1">\nfine\n</file>');
    expect((await call("file_list", {})).isError).toBeUndefined();
  });

  it("refuses to write a file with more than one hard link, and leaves it as it was", async () => {
    await link(path.join(base, "secret.txt"), path.join(root, "linked.txt"));
    expect(await call("file_write", { path: "linked.txt", content: "pwned" })).toEqual({
      output: "path refused: linked.txt: it has 2 hard links; writing it would change every other name of the file, which may lie outside the root",
      isError: true,
    });
    expect((await call("file_edit", { path: "linked.txt", old_string: "SECRET", new_string: "pwned" })).isError).toBe(true);
    expect(await readFile(path.join(base, "secret.txt"), "utf8")).toBe("SECRET\n");
  });

  it("writes through a temporary file renamed into place and keeps the file's mode", async () => {
    await call("file_write", { path: "new/deep/file.txt", content: "one" });
    execFileSync("chmod", ["640", path.join(root, "new/deep/file.txt")]);
    expect((await call("file_write", { path: "new/deep/file.txt", content: "two" })).isError).toBeUndefined();
    expect(await readFile(path.join(root, "new/deep/file.txt"), "utf8")).toBe("two");
    expect(execFileSync("stat", ["-c", "%a", path.join(root, "new/deep/file.txt")]).toString().trim()).toBe("640");
    expect(await readdir(path.join(root, "new/deep"))).toEqual(["file.txt"]);
  });

  it("cuts a line longer than the read budget instead of holding it whole", async () => {
    await writeFile(path.join(root, "long.txt"), `${"a".repeat(3 * 1024 * 1024)}\nnext\n`);
    const result = await call("file_read", { path: "long.txt" });
    expect(result.output).toBe(`<file lines="1-1 of 2">\n${"a".repeat(1024 * 1024 - 1)}\n</file>`);
    expect((await call("file_read", { path: "long.txt", offset: 2 })).output).toBe('<file lines="2-2 of 2">\nnext\n</file>');
  });

  it(`leaks nothing while another process swaps entries for symlinks to outside files (${SWAPS} swaps)`, async () => {
    const race = path.join(base, "race");
    await mkdir(path.join(race, "dir"), { recursive: true });
    await writeFile(path.join(race, "entry"), "inside\n");
    await writeFile(path.join(race, "dir/file.txt"), "inside\n");
    const raceKernel = await createTestKernel([[filesPlugin, { root: race }]]);
    const swapper = spawn(process.execPath, [SWAPPER, race, path.join(base, "secret.txt"), path.join(base, "outside"), String(SWAPS)], { stdio: ["ignore", "pipe", "inherit"] });
    let done = false;
    const finished = new Promise<number | null>((resolve) => swapper.on("exit", (code) => {
        done = true;
        resolve(code);
      }));
    let reads = 0;
    let writes = 0;
    let leaks = 0;
    try {
      while (!done) {
        const results = await Promise.all([
          raceKernel.execute({ name: "file_read", arguments: { path: "entry" } }),
          raceKernel.execute({ name: "file_read", arguments: { path: "dir/file.txt" } }),
          raceKernel.execute({ name: "file_search", arguments: { pattern: "SECRET" } }),
          raceKernel.execute({ name: "file_write", arguments: { path: "dir/file.txt", content: "written\n" } }),
          raceKernel.execute({ name: "file_write", arguments: { path: "entry", content: "written\n" } }),
        ]);
        reads += 3;
        writes += 2;
        leaks += results.filter((result) => result.output.includes("SECRET") && !result.output.startsWith('<search matches="0"')).length;
      }
      expect(await finished).toBe(0);
    } finally {
      swapper.kill("SIGKILL");
      await raceKernel.close();
    }
    expect(await readFile(path.join(base, "secret.txt"), "utf8")).toBe("SECRET\n");
    expect(await readFile(path.join(base, "outside/file.txt"), "utf8")).toBe("SECRET\n");
    expect((await readdir(path.join(base, "outside"))).sort()).toEqual(["file.txt"]);
    expect({ leaks, someReads: reads > 100, someWrites: writes > 100 }).toEqual({ leaks: 0, someReads: true, someWrites: true });
    // 10 000 swaps of each kind take ~20 s on a quiet machine; a loaded one needs more.
  }, 180_000);
});
