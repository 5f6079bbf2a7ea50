import { mkdir, mkdtemp, readFile, readdir, realpath, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { defined, createTestKernel } from "@weft/testing";
import filesPlugin, { fileTools } from "./index.js";

const DESCRIPTIONS: Record<string, string> = {
  file_read: "Read a text file, at most 2000 lines and 1 MiB a call; page with offset (first line) and limit. Also reads PNG, JPEG, GIF, WebP and PDF files.",
  file_write: "Create or overwrite a text file, creating missing folders.",
  file_edit:
    "Replace old_string with new_string in a text file. old_string must match exactly (whitespace too) and only once; add context lines to make it unique.",
  file_list: "List a folder's entries, sorted by name.",
  file_delete: "Delete a file or an empty folder.",
  file_workdir: "Give the absolute path of the root that paths are relative to.",
  file_search:
    "Search text files for a JavaScript regex, line by line; at most limit (default 100) matching lines. Skips binary files, .git and node_modules; cuts lines at 500 bytes.",
};

const rootRelative = { type: "string", description: "Root-relative" };
const SCHEMAS: Record<string, unknown> = {
  file_read: { type: "object", properties: { path: rootRelative, offset: { type: "integer", minimum: 1 }, limit: { type: "integer", minimum: 1 } }, required: ["path"] },
  file_write: { type: "object", properties: { path: rootRelative, content: { type: "string" } }, required: ["path", "content"] },
  file_edit: { type: "object", properties: { path: rootRelative, old_string: { type: "string" }, new_string: { type: "string" } }, required: ["path", "old_string", "new_string"] },
  file_list: { type: "object", properties: { path: { type: "string", description: "Root-relative; default: the root" } } },
  file_delete: { type: "object", properties: { path: rootRelative }, required: ["path"] },
  file_workdir: { type: "object", properties: {} },
  file_search: {
    type: "object",
    properties: {
      pattern: { type: "string" },
      path: { type: "string", description: "Root-relative folder or file; default: the root" },
      glob: { type: "string", description: 'e.g. "*.ts" or "src/**/*.md"' },
      limit: { type: "integer", minimum: 1 },
    },
    required: ["pattern"],
  },
};

const lines = (count: number, make = (n: number) => `line ${n}`) => Array.from({ length: count }, (_, i) => `${make(i + 1)}\n`).join("");

describe("file pack", () => {
  let base: string;
  let root: string;
  let kernel: Kernel;
  const call = (name: string, args: Record<string, unknown>) => kernel.execute({ name, arguments: args });

  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-files-")));
    root = path.join(base, "workspace");
    await mkdir(root);
    kernel = await createTestKernel([[filesPlugin, { root: "./workspace" }]], { baseDir: base });
  });
  afterAll(async () => {
    await kernel.close();
    await rm(base, { recursive: true, force: true });
  });

  it("publishes seven tools with pinned descriptions and schemas", () => {
    const tools = kernel.tools.list();
    expect(tools.map((tool) => tool.name)).toEqual(["file_delete", "file_edit", "file_list", "file_read", "file_search", "file_workdir", "file_write"]);
    for (const tool of tools) expect({ name: tool.name, description: tool.description }).toEqual({ name: tool.name, description: DESCRIPTIONS[tool.name] });
    expect(tools.every((tool) => tool.source.kind === "pack" && tool.source.id === "@weft/plugin-files")).toBe(true);
    for (const tool of tools) expect({ name: tool.name, schema: tool.inputSchema }).toEqual({ name: tool.name, schema: SCHEMAS[tool.name] });
  });

  it("costs the model a pinned number of bytes (names, descriptions, schemas)", () => {
    const bytes = (name: string) => {
      const tool = kernel.tools.get(name);
      return tool ? Buffer.byteLength(name + tool.description + JSON.stringify(tool.inputSchema)) : 0;
    };
    // The six tools of the Go seed; its README's come to ~1.7 KB, a budget these meet (#18): 1672 bytes, down from 3021.
    const seedSix = ["file_read", "file_write", "file_edit", "file_list", "file_delete", "file_search"];
    expect(seedSix.map(bytes)).toEqual([337, 213, 353, 155, 151, 463]);
    expect(seedSix.map(bytes).reduce((sum, size) => sum + size)).toBeLessThanOrEqual(1700);
    expect(bytes("file_workdir")).toBe(107);
  });

  it("file_workdir answers the root's absolute path", async () => {
    expect(await call("file_workdir", {})).toEqual({ output: root });
  });

  describe("file_read", () => {
    beforeAll(async () => {
      await writeFile(path.join(root, "120.txt"), lines(120));
      await writeFile(path.join(root, "2500.txt"), lines(2500));
      await writeFile(path.join(root, "wide.txt"), lines(3000, (n) => String(n).padEnd(1000, "x")));
      await writeFile(path.join(root, "empty.txt"), "");
      await writeFile(path.join(root, "no-newline.txt"), "a\nb");
      await writeFile(path.join(root, "image.bin"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    });

    it("answers a page of lines with its range", async () => {
      expect((await call("file_read", { path: "120.txt", limit: 40 })).output).toBe(`<file lines="1-40 of 120">\n${lines(40)}</file>`);
      const page = await call("file_read", { path: "120.txt", offset: 118 });
      expect(page.output).toBe('<file lines="118-120 of 120">\nline 118\nline 119\nline 120\n</file>');
      expect((await call("file_read", { path: "no-newline.txt" })).output).toBe('<file lines="1-2 of 2">\na\nb\n</file>');
      expect((await call("file_read", { path: "empty.txt" })).output).toBe('<file lines="0-0 of 0">\n</file>');
    });

    it("stops at 2000 lines by default so the model pages with offset", async () => {
      const first = await call("file_read", { path: "2500.txt" });
      expect(first.output.split("\n")[0]).toBe('<file lines="1-2000 of 2500">');
      expect(first.output.endsWith("line 2000\n</file>")).toBe(true);
      const next = await call("file_read", { path: "2500.txt", offset: 2001 });
      expect(next.output.split("\n")[0]).toBe('<file lines="2001-2500 of 2500">');
      expect(next.output.split("\n")).toHaveLength(502);
    });

    it("stops at 1 MiB when that comes first", async () => {
      const fit = Math.floor((1024 * 1024) / 1001);
      const result = await call("file_read", { path: "wide.txt" });
      expect(result.output.split("\n")[0]).toBe(`<file lines="1-${fit} of 3000">`);
      expect(Buffer.byteLength(result.output)).toBeLessThanOrEqual(1024 * 1024 + 100);
    });

    it("refuses what it cannot read, naming the path", async () => {
      expect(await call("file_read", { path: "120.txt", offset: 121 })).toEqual({ output: "offset 121 is past the end of 120.txt (120 lines)", isError: true });
      expect(await call("file_read", { path: "missing.txt" })).toEqual({ output: "not found: missing.txt", isError: true });
      expect(await call("file_read", { path: "image.bin" })).toEqual({ output: "image.bin is a binary file; only text files, images (PNG, JPEG, GIF, WebP) and PDFs can be read", isError: true });
      await mkdir(path.join(root, "folder"), { recursive: true });
      expect(await call("file_read", { path: "folder" })).toEqual({ output: "folder is a folder, not a file", isError: true });
    });
  });

  it("file_write creates the folders it needs and says what it wrote", async () => {
    const result = await call("file_write", { path: "notes/2026/q1.md", content: "héllo\n" });
    expect(result.output).toBe(`wrote 7 bytes to notes/2026/q1.md - ${root}/notes/2026/q1.md`);
    expect(await readFile(path.join(root, "notes/2026/q1.md"), "utf8")).toBe("héllo\n");
    expect((await call("file_write", { path: "notes/2026/q1.md", content: "" })).output).toBe(`wrote 0 bytes to notes/2026/q1.md - ${root}/notes/2026/q1.md`);
    expect(await call("file_write", { path: "notes", content: "x" })).toEqual({ output: "notes is a folder, not a file", isError: true });
  });

  describe("file_edit", () => {
    const original = "alpha\nbeta\ngamma\nbeta\n";
    beforeAll(() => writeFile(path.join(root, "edit.txt"), original));

    it("leaves the file untouched when old_string occurs zero or several times", async () => {
      expect(await call("file_edit", { path: "edit.txt", old_string: "delta", new_string: "x" })).toEqual({
        output: "old_string was not found in edit.txt; the file is unchanged. Read the file and copy the text exactly",
        isError: true,
      });
      expect(await call("file_edit", { path: "edit.txt", old_string: "beta", new_string: "x" })).toEqual({
        output: "old_string occurs 2 times in edit.txt; the file is unchanged. Add surrounding lines to old_string so it occurs exactly once",
        isError: true,
      });
      expect(await call("file_edit", { path: "edit.txt", old_string: "", new_string: "x" })).toEqual({
        output: "old_string is empty; give the exact text to replace in edit.txt",
        isError: true,
      });
      expect(await readFile(path.join(root, "edit.txt"), "utf8")).toBe(original);
    });

    it("replaces the one occurrence, taking $ patterns literally", async () => {
      const result = await call("file_edit", { path: "edit.txt", old_string: "gamma\nbeta", new_string: "$& $1 $$" });
      expect(result.output).toBe(`edited edit.txt - ${root}/edit.txt`);
      expect(await readFile(path.join(root, "edit.txt"), "utf8")).toBe("alpha\nbeta\n$& $1 $$\n");
    });

    it("names a missing file", async () => {
      expect(await call("file_edit", { path: "nope.txt", old_string: "a", new_string: "b" })).toEqual({ output: "not found: nope.txt", isError: true });
    });
  });

  describe("file_list", () => {
    let folder: string;
    beforeAll(async () => {
      folder = path.join(root, "list");
      await mkdir(path.join(folder, "2026"), { recursive: true });
      await mkdir(path.join(folder, "empty"));
      await writeFile(path.join(folder, "q1.md"), "12345678");
      await writeFile(path.join(folder, 'odd "name".txt'), "");
      await symlink("q1.md", path.join(folder, "alias.md"));
    });

    it("answers one element per entry, sorted by name", async () => {
      expect((await call("file_list", { path: "list" })).output).toBe(
        [
          `<dir name="2026" path="${folder}/2026"/>`,
          `<file name="alias.md" size="8" path="${folder}/alias.md"/>`,
          `<dir name="empty" path="${folder}/empty"/>`,
          `<file name="odd &quot;name&quot;.txt" size="0" path="${folder}/odd &quot;name&quot;.txt"/>`,
          `<file name="q1.md" size="8" path="${folder}/q1.md"/>`,
        ].join("\n"),
      );
    });

    it("says when a folder is empty and refuses a file", async () => {
      expect(await call("file_list", { path: "list/empty" })).toEqual({ output: `(empty folder: ${folder}/empty)` });
      expect(await call("file_list", { path: "list/q1.md" })).toEqual({ output: "list/q1.md is a file, not a folder", isError: true });
      expect(await call("file_list", { path: "list/none" })).toEqual({ output: "not found: list/none", isError: true });
    });
  });

  describe("file_delete", () => {
    beforeAll(async () => {
      await mkdir(path.join(root, "del/full"), { recursive: true });
      await mkdir(path.join(root, "del/hollow"));
      await writeFile(path.join(root, "del/full/keep.txt"), "keep");
      await writeFile(path.join(root, "del/gone.txt"), "bye");
      await writeFile(path.join(root, "del/target.txt"), "target");
      await symlink("target.txt", path.join(root, "del/link"));
    });

    it("deletes a file and an empty folder", async () => {
      expect(await call("file_delete", { path: "del/gone.txt" })).toEqual({ output: `deleted del/gone.txt - ${root}/del/gone.txt`, metadata: { path: `${root}/del/gone.txt` } });
      expect(await call("file_delete", { path: "del/hollow/" })).toMatchObject({ output: `deleted del/hollow/ - ${root}/del/hollow` });
      expect((await readdir(path.join(root, "del"))).sort()).toEqual(["full", "link", "target.txt"]);
    });

    it("refuses a folder that is not empty, and the root", async () => {
      expect(await call("file_delete", { path: "del/full" })).toEqual({ output: "del/full is a folder that is not empty; delete its entries first", isError: true });
      expect(await readFile(path.join(root, "del/full/keep.txt"), "utf8")).toBe("keep");
      expect(await call("file_delete", { path: "." })).toEqual({ output: "the root folder itself cannot be deleted", isError: true });
      expect(await call("file_delete", { path: "del/none" })).toEqual({ output: "not found: del/none", isError: true });
    });

    it("deletes a symlink itself, not what it points to", async () => {
      expect((await call("file_delete", { path: "del/link" })).output).toBe(`deleted del/link - ${root}/del/link`);
      expect(await readFile(path.join(root, "del/target.txt"), "utf8")).toBe("target");
    });
  });

  describe("file_search", () => {
    beforeAll(async () => {
      const folder = path.join(root, "src");
      await mkdir(path.join(folder, "deep"), { recursive: true });
      await mkdir(path.join(folder, "node_modules/dep"), { recursive: true });
      await mkdir(path.join(folder, ".git"), { recursive: true });
      await writeFile(path.join(folder, "a.ts"), "const needle = 1;\nother\nneedle again\n");
      await writeFile(path.join(folder, "b.md"), "a needle in docs\n");
      await writeFile(path.join(folder, "deep/c.ts"), `${"n".repeat(10)}needle${"z".repeat(600)}\n`);
      await writeFile(path.join(folder, "blob.bin"), Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]));
      await writeFile(path.join(folder, "node_modules/dep/index.js"), "needle\n");
      await writeFile(path.join(folder, ".git/config"), "needle\n");
    });

    it("answers one match per line in path order, skipping binaries, .git and node_modules", async () => {
      const result = await call("file_search", { pattern: "needle", path: "src" });
      expect(result.output).toBe(
        [
          '<search matches="4" files="3">',
          '<match path="src/a.ts" line="1">const needle = 1;</match>',
          '<match path="src/a.ts" line="3">needle again</match>',
          '<match path="src/b.md" line="1">a needle in docs</match>',
          `<match path="src/deep/c.ts" line="1">${"n".repeat(10)}needle${"z".repeat(500 - 16)}…</match>`,
          "</search>",
        ].join("\n"),
      );
    });

    it("filters by glob, marks a cut-off list truncated, and searches inside skipped folders when asked", async () => {
      expect((await call("file_search", { pattern: "need(le)", path: "src", glob: "*.ts", limit: 2 })).output).toBe(
        ['<search matches="2" files="1" truncated="true">', '<match path="src/a.ts" line="1">const needle = 1;</match>', '<match path="src/a.ts" line="3">needle again</match>', "</search>"].join("\n"),
      );
      expect((await call("file_search", { pattern: "needle", glob: "src/deep/**" })).output.split("\n")[0]).toBe('<search matches="1" files="1">');
      expect((await call("file_search", { pattern: "needle", path: "src/node_modules" })).output).toBe(
        '<search matches="1" files="1">\n<match path="src/node_modules/dep/index.js" line="1">needle</match>\n</search>',
      );
      expect((await call("file_search", { pattern: "absent", path: "src" })).output).toBe('<search matches="0" files="0">\n</search>');
    });

    it("refuses an invalid regular expression", async () => {
      expect(await call("file_search", { pattern: "(" })).toEqual({ output: "invalid pattern: Invalid regular expression: /(/: Unterminated group", isError: true });
    });
  });
});

describe("file pack options", () => {
  let base: string;
  beforeAll(async () => {
    base = await realpath(await mkdtemp(path.join(tmpdir(), "weft-files-opt-")));
    await mkdir(path.join(base, "src"));
    await writeFile(path.join(base, "src/one.ts"), "export const one = 1;\n");
    await writeFile(path.join(base, "src/two.js"), "two\n");
    await writeFile(path.join(base, "README.md"), "readme\n");
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  it("refuses a root that does not exist, and does not create it", async () => {
    await expect(createTestKernel([[filesPlugin, { root: "missing" }]], { baseDir: base })).rejects.toThrow(
      `root folder ${base}/missing cannot be used: ENOENT: no such file or directory, realpath '${base}/missing'`,
    );
    await expect(stat(path.join(base, "missing"))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("registers the built-in read, write, edit, grep and glob with builtins: true", async () => {
    const kernel = await createTestKernel([[filesPlugin, { root: ".", builtins: true, tools: { write: false } }]], { baseDir: base });
    try {
      expect(kernel.tools.list().map((tool) => [tool.name, tool.source.kind])).toEqual([
        ["edit", "builtin"],
        ["glob", "builtin"],
        ["grep", "builtin"],
        ["read", "builtin"],
      ]);
      expect(defined(kernel.tools.get("read")).description).toBe(DESCRIPTIONS.file_read);
      expect(defined(kernel.tools.get("glob"))).toMatchObject({
        description: "Find files whose path matches a glob (*, **, ?, [abc], {a,b}), sorted, at most 1000. Skips .git and node_modules.",
        inputSchema: {
          type: "object",
          properties: {
            pattern: { type: "string", description: 'Relative to path, e.g. "**/*.ts" or "docs/*.md"' },
            path: { type: "string", description: "Root-relative folder; default: the root" },
          },
          required: ["pattern"],
        },
      });
      expect((await kernel.execute({ name: "glob", arguments: { pattern: "**/*.{ts,md}" } })).output).toBe('<glob pattern="**/*.{ts,md}" matches="2">\nREADME.md\nsrc/one.ts\n</glob>');
      expect((await kernel.execute({ name: "glob", arguments: { pattern: "*", path: "src" } })).output).toBe('<glob pattern="*" matches="2">\nsrc/one.ts\nsrc/two.js\n</glob>');
      expect((await kernel.execute({ name: "grep", arguments: { pattern: "one" } })).output).toBe(
        '<search matches="1" files="1">\n<match path="src/one.ts" line="1">export const one = 1;</match>\n</search>',
      );
    } finally {
      await kernel.close();
    }
  });

  it("roots at the working directory when no root is given", async () => {
    const tools = await fileTools({ builtins: true });
    const read = defined(tools.find((tool) => tool.name === "read"));
    const result = await read.execute({ path: "package.json", limit: 1 }, { signal: new AbortController().signal, callId: "c", onProgress() {} });
    expect(result.output).toMatch(/^<file lines="1-1 of \d+">\n\{\n<\/file>$/);
    expect(result.metadata).toMatchObject({ path: path.join(await realpath(process.cwd()), "package.json") });
  });

  it("takes its tools back out when its handle is closed", async () => {
    const kernel = await createTestKernel([], { baseDir: base });
    const handle = await kernel.use(filesPlugin, { root: "." });
    expect(kernel.tools.list()).toHaveLength(7);
    await handle.close();
    expect(kernel.tools.list()).toEqual([]);
    await kernel.close();
  });
});
