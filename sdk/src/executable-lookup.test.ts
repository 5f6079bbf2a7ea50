import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findExecutable } from "./executable-lookup.js";
import { droppedServerTools, keepTools } from "./tool-pack.js";
import { escapeXmlAttribute } from "./xml-attribute.js";

describe("findExecutable", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(path.join(tmpdir(), "weft-exe-")));
    await mkdir(path.join(dir, "a"));
    await mkdir(path.join(dir, "b"));
    await mkdir(path.join(dir, "b/tool-dir"));
    await writeFile(path.join(dir, "a/tool"), "#!/bin/sh\n");
    await writeFile(path.join(dir, "b/tool"), "#!/bin/sh\n");
    await chmod(path.join(dir, "b/tool"), 0o755);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("finds the first executable file on PATH, skipping non-executable files and folders", () => {
    const envPath = [path.join(dir, "a"), path.join(dir, "b")].join(path.delimiter);
    expect(findExecutable("tool", envPath)).toBe(path.join(dir, "b/tool"));
    expect(findExecutable("tool-dir", envPath)).toBeUndefined();
    expect(findExecutable("missing", envPath)).toBeUndefined();
    expect(findExecutable("tool", "")).toBeUndefined();
  });

  it("takes a path as is", () => {
    expect(findExecutable(path.join(dir, "b/tool"), "")).toBe(path.join(dir, "b/tool"));
    expect(findExecutable(path.join(dir, "a/tool"), "")).toBeUndefined();
  });
});

describe("pack helpers", () => {
  it("keeps the tools a drop map does not switch off", () => {
    expect(keepTools([{ name: "a" }, { name: "b" }, { name: "c" }], { b: false, c: true, zz: false })).toEqual([{ name: "a" }, { name: "c" }]);
  });

  it("turns a server's dropped tools into its tools filter", () => {
    expect(droppedServerTools("serena", { serena__find_symbol: false, serena__read_file: true, bash: false, donsetch__web_crawl: false })).toEqual(["!find_symbol"]);
  });

  it("escapes what would end an attribute early", () => {
    expect(escapeXmlAttribute(`a "b" <c> & d\ne`)).toBe("a &quot;b&quot; &lt;c&gt; &amp; d&#10;e");
  });
});
