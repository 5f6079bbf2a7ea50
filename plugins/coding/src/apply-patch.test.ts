import { chmod, mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { defined, createTestKernel } from "@weft/testing";
import codingPlugin, { APPLY_PATCH_DESCRIPTION } from "./index.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

const MAIN = ["import os", "", "def greet(name):", '    print("hello", name)', "    return name", "", "def main():", '    greet("world")', "    return 0", ""].join("\n");

describe("apply_patch", () => {
  let dir: string;
  let kernel: Kernel;
  const apply = (text: string) => kernel.execute({ name: "apply_patch", arguments: { patch: text } });
  const read = (file: string) => readFile(path.join(dir, file), "utf8");

  beforeEach(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-patch-")));
    await mkdir(path.join(dir, "src"));
    await writeFile(path.join(dir, "src/main.py"), MAIN);
    await writeFile(path.join(dir, "old.txt"), "old\n");
    await writeFile(path.join(dir, "run.sh"), "#!/bin/sh\necho run\n");
    await chmod(path.join(dir, "run.sh"), 0o755);
    kernel = await createTestKernel([[codingPlugin, { builtins: true, root: "." }]], { baseDir: dir });
  });
  afterEach(async () => {
    await kernel.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("is the only tool of the built-in set, with its format in the description", () => {
    expect(kernel.tools.list().map((tool) => [tool.name, tool.source])).toEqual([["apply_patch", { kind: "builtin", id: "@weft/plugin-coding" }]]);
    expect(defined(kernel.tools.get("apply_patch")).description).toBe(APPLY_PATCH_DESCRIPTION);
    expect(APPLY_PATCH_DESCRIPTION).toBe(`Add, change and delete files under the working folder with one patch. The patch is text in this format:

*** Begin Patch
*** Add File: <path>
+<each line of the new file, after a +>
*** Update File: <path>
*** Move to: <new path>   (optional: rename the file too)
@@ <optional: a line above the change, such as the function it is in>
 <a context line, after a space>
-<a line to remove>
+<a line to add>
*** Delete File: <path>
*** End Patch

Paths are relative to the working folder. In an update, give about 3 lines of unchanged context before and after each change, start each further change with @@, and end a change that reaches the end of the file with "*** End of File". Every change is checked before anything is written: if one does not apply, no file is changed.`);
  });

  it("adds, updates and deletes files in one patch", async () => {
    const result = await apply(
      patch(
        "*** Add File: docs/new/notes.md",
        "+# Notes",
        "+",
        "+first",
        "*** Update File: src/main.py",
        "@@ def greet(name):",
        '-    print("hello", name)',
        '+    print("hi", name)',
        "     return name",
        "@@ def main():",
        '-    greet("world")',
        '+    greet("weft")',
        "     return 0",
        "*** Delete File: old.txt",
      ),
    );
    expect(result).toEqual({
      output: "Success. Updated the following files:\nA docs/new/notes.md\nM src/main.py\nD old.txt",
      metadata: { files: [{ mark: "A", path: "docs/new/notes.md" }, { mark: "M", path: "src/main.py" }, { mark: "D", path: "old.txt" }] },
    });
    expect(await read("docs/new/notes.md")).toBe("# Notes\n\nfirst\n");
    expect(await read("src/main.py")).toBe(MAIN.replace('print("hello"', 'print("hi"').replace('greet("world")', 'greet("weft")'));
    expect((await readdir(dir)).sort()).toEqual(["docs", "run.sh", "src"]);
  });

  it("matches context despite trailing whitespace, appends at the end of file, and moves a file keeping its mode", async () => {
    const result = await apply(
      patch(
        "*** Update File: src/main.py",
        "@@",
        "-import os   ",
        "+import sys",
        "*** Update File: run.sh",
        "*** Move to: bin/run.sh",
        "@@",
        " echo run",
        "+echo done",
        "*** End of File",
      ),
    );
    expect(result.output).toBe("Success. Updated the following files:\nM src/main.py\nM bin/run.sh");
    expect((await read("src/main.py")).split("\n")[0]).toBe("import sys");
    expect(await read("bin/run.sh")).toBe("#!/bin/sh\necho run\necho done\n");
    expect((await stat(path.join(dir, "bin/run.sh"))).mode & 0o777).toBe(0o755);
    await expect(stat(path.join(dir, "run.sh"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("writes nothing when one hunk fails, even after others that would apply", async () => {
    const before = { main: await read("src/main.py"), old: await read("old.txt") };
    const result = await apply(
      patch(
        "*** Add File: created.txt",
        "+should not exist",
        "*** Delete File: old.txt",
        "*** Update File: src/main.py",
        "@@ def greet(name):",
        '-    print("hello", name)',
        '+    print("hi", name)',
        "@@ def main():",
        '-    greet("nobody")',
        '+    greet("weft")',
      ),
    );
    expect(result).toEqual({
      output: 'apply_patch failed, nothing was written: chunk 2 of src/main.py does not match the file; these lines were not found below the @@ line:\n    greet("nobody")',
      isError: true,
    });
    expect(await read("src/main.py")).toBe(before.main);
    expect(await read("old.txt")).toBe(before.old);
    expect((await readdir(dir)).sort()).toEqual(["old.txt", "run.sh", "src"]);
  });

  it("names each conflict", async () => {
    const failures: [string, string][] = [
      [patch("*** Add File: old.txt", "+x"), 'cannot add old.txt: it already exists; use "*** Update File:" to change it'],
      [patch("*** Delete File: missing.txt"), "missing.txt does not exist"],
      [patch("*** Update File: missing.txt", "@@", "-a", "+b"), "missing.txt does not exist"],
      [patch("*** Delete File: src"), "src is not a file"],
      [patch("*** Update File: src/main.py", "@@ def nowhere():", " x"), 'the chunk of src/main.py: the "@@ def nowhere():" line was not found in the file'],
      [patch("*** Update File: old.txt", "*** Move to: src/main.py", "@@", "-old", "+new"), "cannot move old.txt to src/main.py: it already exists"],
      [patch("*** Delete File: old.txt", "*** Update File: old.txt", "@@", "-old", "+new"), "old.txt appears more than once in the patch; merge its changes into one operation"],
      [patch("*** Delete File: ../outside.txt"), 'path refused: ../outside.txt: ".." is not allowed; give a path inside the root'],
      [patch("*** Add File: /tmp/abs.txt", "+x"), "path refused: /tmp/abs.txt: absolute paths are not allowed; give a path relative to the root"],
    ];
    for (const [text, reason] of failures) {
      expect(await apply(text)).toEqual({ output: `apply_patch failed, nothing was written: ${reason}`, isError: true });
    }
    expect(await read("old.txt")).toBe("old\n");
  });

  it("puts back what it wrote when the disk refuses a later write", async () => {
    const before = await read("src/main.py");
    const result = await apply(patch("*** Update File: src/main.py", "@@", "-import os", "+import sys", "*** Add File: old.txt/inner.txt", "+x"));
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^apply_patch failed: .*old\.txt.*; files already written were put back$/);
    expect(await read("src/main.py")).toBe(before);
    expect(await read("old.txt")).toBe("old\n");
  });

  it("explains what is wrong with a malformed patch", async () => {
    const malformed: [string, string][] = [
      ["*** Update File: a\n*** End Patch", 'the first line must be "*** Begin Patch"'],
      ["*** Begin Patch\n*** Delete File: old.txt", 'the last line must be "*** End Patch"'],
      [patch("*** Add File: a.txt", "no plus"), 'line 3: every line of an added file starts with "+" (in a.txt)'],
      [patch("*** Update File: old.txt", "@@", "?old"), 'line 4: a chunk line starts with " ", "-" or "+", got "?old" (in old.txt)'],
      [patch("*** Update File: old.txt"), 'line 3: "*** Update File: old.txt" has no chunks'],
      [patch("*** Rename File: old.txt"), 'line 2: expected "*** Add File: ", "*** Update File: ", "*** Delete File: " or "*** End Patch", got "*** Rename File: old.txt"'],
      [patch(), "the patch changes no file"],
    ];
    for (const [text, reason] of malformed) {
      expect(await apply(text)).toEqual({ output: `apply_patch failed, nothing was written: invalid patch: ${reason}`, isError: true });
    }
  });
});
