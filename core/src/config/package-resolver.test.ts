import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorCode } from "@weft/sdk";
import { resolvePackageSpecifier } from "./package-resolver.js";

// Package shapes, each `folder under the project → package.json (an object, or raw text) and its files`.
// Every file is a module exporting its own path, so the oracle below can import it.
const PACKAGES: Record<string, { manifest?: object | string; files?: string[] }> = {
  "node_modules/exports-string": { manifest: { exports: "./main.js" }, files: ["main.js", "index.js"] },
  "node_modules/nested": {
    manifest: { exports: { types: "./types.d.ts", browser: "./browser.js", node: { require: "./node.cjs", import: { worker: "./worker.js", default: "./node-import.js" } }, default: "./fallback.js" } },
    files: ["browser.js", "node-import.js", "fallback.js", "worker.js"],
  },
  "node_modules/default-first": { manifest: { exports: { default: "./default.js", import: "./import.js" } }, files: ["default.js", "import.js"] },
  "node_modules/module-sync": { manifest: { exports: { "module-sync": "./sync.js", import: "./import.js", default: "./default.js" } }, files: ["sync.js", "import.js", "default.js"] },
  "node_modules/subpaths": {
    manifest: { exports: { ".": "./main.js", "./feature": { import: "./feature.js" }, "./cjs-only": { require: "./feature.js" }, "./gone": null } },
    files: ["main.js", "feature.js"],
  },
  "node_modules/patterns": {
    manifest: {
      exports: {
        "./features/*": "./src/features/*.js",
        "./features/*.js": "./src/features/*.js",
        "./features/internal/*": null,
        "./deep/*/index": "./src/deep/*/main.js",
        "./twice/*": "./src/*/*.js",
        "./escape/*": "./src/*",
      },
    },
    files: ["src/features/alpha.js", "src/features/a/b.js", "src/features/internal/secret.js", "src/deep/x/main.js", "src/t/t.js"],
  },
  "node_modules/fallbacks": { manifest: { exports: { ".": ["not-relative", { worker: "./worker.js" }, "./second.js"], "./nulls": [null, "./second.js"] } }, files: ["second.js"] },
  "node_modules/main-extension": { manifest: { main: "lib/entry" }, files: ["lib/entry.js"] },
  "node_modules/main-folder": { manifest: { main: "lib" }, files: ["lib/index.js"] },
  "node_modules/main-missing": { manifest: { main: "./nowhere.js" }, files: ["index.js"] },
  "node_modules/no-manifest": { files: ["index.js"] },
  "node_modules/no-main-file": { manifest: { main: "./nowhere.js" } },
  "node_modules/exports-null": { manifest: { exports: null, main: "./legacy.js" }, files: ["legacy.js"] },
  "node_modules/plain": { manifest: {}, files: ["index.js", "lib/other.js"] },
  "node_modules/@scope/pack": { manifest: { exports: { ".": "./scoped.js", "./sub": "./sub.js" } }, files: ["scoped.js", "sub.js"] },
  "node_modules/no-main-export": { manifest: { exports: { "./only": "./only.js" } }, files: ["only.js", "index.js"] },
  "node_modules/outside-target": { manifest: { exports: "../outside.js" } },
  "node_modules/node-modules-target": { manifest: { exports: "./node_modules/x.js" }, files: ["node_modules/x.js"] },
  "node_modules/encoded-dots": { manifest: { exports: "./%2E%2e/outside.js" } },
  "node_modules/upper-node-modules": { manifest: { exports: { ".": "./NODE_MODULES/x.js", "./ok": "./a%20b.js" } }, files: ["NODE_MODULES/x.js", "a b.js"] },
  "node_modules/bad-json": { manifest: "{ not json", files: ["index.js"] },
  "node_modules/mixed-keys": { manifest: { exports: { ".": "./a.js", import: "./b.js" } }, files: ["a.js", "b.js"] },
  "node_modules/missing-target": { manifest: { exports: "./missing.js" } },
  "node_modules/folder-target": { manifest: { exports: { ".": "./lib", "./lib/*": "./lib/*" } }, files: ["lib/index.js"] },
  "packages/linked": { manifest: { exports: "./real.js" }, files: ["real.js"] },
  // The project itself is a package: a module in it may import it by its name.
  ".": { manifest: { name: "self-pack", exports: { ".": "./self.js", "./x": "./x.js" } }, files: ["self.js", "x.js", "plain-file.js"] },
};

const SPECIFIERS = [
  "exports-string",
  "nested",
  "default-first",
  "module-sync",
  "subpaths",
  "subpaths/feature",
  "subpaths/cjs-only",
  "subpaths/gone",
  "subpaths/missing",
  "patterns/features/alpha",
  "patterns/features/alpha.js",
  "patterns/features/a/b",
  "patterns/features/internal/secret",
  "patterns/deep/x/index",
  "patterns/twice/t",
  "patterns/escape/../../outside.js",
  "patterns/escape/%2e%2e/%2E%2E/outside.js",
  "patterns/escape/Node_Modules/x",
  "patterns",
  "fallbacks",
  "fallbacks/nulls",
  "main-extension",
  "main-folder",
  "main-missing",
  "no-manifest",
  "no-main-file",
  "exports-null",
  "plain",
  "plain/lib/other.js",
  "plain/lib/missing.js",
  "@scope/pack",
  "@scope/pack/sub",
  "@scope/missing",
  "@scope",
  "no-main-export",
  "no-main-export/only",
  "outside-target",
  "node-modules-target",
  "encoded-dots",
  "upper-node-modules",
  "upper-node-modules/ok",
  "bad-json",
  "mixed-keys",
  "missing-target",
  "folder-target",
  "folder-target/lib/index.js",
  "linked",
  "self-pack",
  "self-pack/x",
  "self-pack/nope",
  "not-installed",
  "fs",
  "node:path",
];

/** What Node itself does with each specifier, imported by a module in `dir`: the URL it loads, or its error code. */
function nodeAnswers(dir: string, specifiers: string[]): Record<string, string> {
  const probe = path.join(dir, "probe.mjs");
  const code = `const answers = {};
for (const specifier of JSON.parse(process.argv[2])) {
  try { await import(specifier); answers[specifier] = import.meta.resolve(specifier); } catch (error) { answers[specifier] = error.code; }
}
process.stdout.write(JSON.stringify(answers));
`;
  writeFileSync(probe, code);
  return JSON.parse(execFileSync(process.execPath, ["--no-deprecation", probe, JSON.stringify(specifiers)], { encoding: "utf8" })) as Record<string, string>;
}

function weftAnswers(dir: string, specifiers: string[]): Record<string, string> {
  const answers: Record<string, string> = {};
  for (const specifier of specifiers) {
    try {
      answers[specifier] = resolvePackageSpecifier(specifier, dir);
    } catch (error) {
      answers[specifier] = errorCode(error) ?? String(error);
    }
  }
  return answers;
}

describe("resolvePackageSpecifier answers as Node's own resolver does", () => {
  let project: string;

  beforeAll(async () => {
    project = path.join(await realpath(await mkdtemp(path.join(tmpdir(), "weft-resolve-"))), "project");
    for (const [folder, { manifest, files = [] }] of Object.entries(PACKAGES)) {
      const dir = path.join(project, folder);
      await mkdir(dir, { recursive: true });
      if (manifest !== undefined) {
        const json = typeof manifest === "string" ? manifest : JSON.stringify({ type: "module", ...manifest });
        await writeFile(path.join(dir, "package.json"), json);
      }
      for (const file of files) {
        await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
        await writeFile(path.join(dir, file), `export default ${JSON.stringify(`${folder}/${file}`)};\n`);
      }
    }
    await writeFile(path.join(project, "../outside.js"), "export default 1;\n");
    await symlink("../packages/linked", path.join(project, "node_modules/linked"));
    await symlink("plain-file.js", path.join(project, "alias.js"));
    await mkdir(path.join(project, "deep/er"), { recursive: true });
  });
  afterAll(() => rm(path.dirname(project), { recursive: true, force: true }));

  it("from the project folder, for every package shape", () => {
    const specifiers = [...SPECIFIERS, pathToFileURL(path.join(project, "alias.js")).href, pathToFileURL(path.join(project, "absent.js")).href];
    const node = nodeAnswers(project, specifiers);
    expect(weftAnswers(project, specifiers)).toEqual(node);
    // The oracle answered each way the shapes are meant to exercise.
    expect(node).toMatchObject({
      nested: pathToFileURL(path.join(project, "node_modules/nested/node-import.js")).href,
      linked: pathToFileURL(path.join(project, "packages/linked/real.js")).href,
      "patterns/features/a/b": pathToFileURL(path.join(project, "node_modules/patterns/src/features/a/b.js")).href,
      "self-pack/x": pathToFileURL(path.join(project, "x.js")).href,
      [pathToFileURL(path.join(project, "alias.js")).href]: pathToFileURL(path.join(project, "plain-file.js")).href,
      "not-installed": "ERR_MODULE_NOT_FOUND",
      "subpaths/missing": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "outside-target": "ERR_INVALID_PACKAGE_TARGET",
      "encoded-dots": "ERR_INVALID_PACKAGE_TARGET",
      "upper-node-modules": "ERR_INVALID_PACKAGE_TARGET",
      "upper-node-modules/ok": pathToFileURL(path.join(project, "node_modules/upper-node-modules/a b.js")).href,
      "patterns/escape/Node_Modules/x": "ERR_INVALID_MODULE_SPECIFIER",
      "bad-json": "ERR_INVALID_PACKAGE_CONFIG",
      "folder-target": "ERR_UNSUPPORTED_DIR_IMPORT",
      fs: "node:fs",
    });
  });

  it("from a folder below it, through the node_modules and the package.json above", () => {
    const dir = path.join(project, "deep/er");
    expect(weftAnswers(dir, SPECIFIERS)).toEqual(nodeAnswers(dir, SPECIFIERS));
  });
});
