import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// What scripts/bundle-dist.mjs leaves in a package's dist (after the build the test command runs):
// every module's map carries the sources it points at (src/ is not shipped), and every relative
// import names a file that is there.
const root = fileURLToPath(new URL("..", import.meta.url));
const bundled = ["sdk", "core", "cli", ...readdirSync(path.join(root, "plugins")).map((name) => `plugins/${name}`)].filter((dir) =>
  (JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as { scripts?: { build?: string } }).scripts?.build?.includes("bundle-dist.mjs"),
);

describe("bundled dist folders", () => {
  it.each(bundled)("%s: maps carry their sources, relative imports resolve", (dir) => {
    const dist = path.join(root, dir, "dist");
    const modules = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    expect(modules.length).toBeGreaterThan(0);
    for (const file of modules) {
      const code = readFileSync(path.join(dist, file), "utf8");
      // rolldown's runtime helpers come from no source of ours, and have no map.
      if (path.basename(file).startsWith("rolldown-runtime-")) continue;
      const map = JSON.parse(readFileSync(path.join(dist, `${file}.map`), "utf8")) as { sources: string[]; sourcesContent?: (string | null)[] };
      expect(map.sources.length, file).toBeGreaterThan(0);
      expect(map.sourcesContent?.filter((content) => typeof content === "string").length, file).toBe(map.sources.length);
      // The bundler's own imports: the block heading the file, and dynamic imports of hashed chunks
      // (text further down, a template or a comment, may quote an import that is not one).
      const lines = code.replace(/^(\/\*![\s\S]*?\*\/\n)+/, "").split("\n");
      const heading = lines.slice(0, Math.max(0, lines.findIndex((line) => !line.startsWith("import "))));
      const specifiers = [...heading.join("\n").matchAll(/from\s*"(\.{1,2}\/[^"]+)"/g), ...code.matchAll(/import\("(\.\/[^"]+-[\w-]{8}\.js)"\)/g)];
      for (const [, specifier] of specifiers) {
        expect(existsSync(path.resolve(path.dirname(path.join(dist, file)), specifier as string)), `${file} imports ${specifier}`).toBe(true);
      }
    }
  });

  it("sdk: the typebox entries are bundled alone (--alone), and the root loads them when a value is first checked, not with itself", () => {
    const dist = path.join(root, "sdk", "dist");
    const lite = readFileSync(path.join(dist, "typebox-lite.js"), "utf8");
    const full = readFileSync(path.join(dist, "typebox.js"), "utf8");
    for (const entry of [lite, full]) expect(entry).not.toMatch(/from\s*"\.{1,2}\//);
    expect(lite.length).toBeLessThan(full.length / 2);
    // The root holds typebox's builders (its `Type`); the checker and the compiler load with schemaErrors's first check.
    for (const file of readdirSync(dist).filter((name) => name.endsWith(".js") && !name.startsWith("typebox"))) {
      expect(readFileSync(path.join(dist, file), "utf8"), file).not.toMatch(/from "\.\/typebox(-lite)?\.js"/);
    }
    const index = readFileSync(path.join(dist, "index.js"), "utf8");
    expect(index).toMatch(/import\("\.\/typebox-lite\.js"\)/);
    expect(index).toMatch(/import\("\.\/typebox\.js"\)/);
  });

  it("core: no module sets up a CommonJS require at load (no createRequire, no bundled CommonJS wrapper)", () => {
    const dist = path.join(root, "core", "dist");
    const code = readdirSync(dist).filter((name) => name.endsWith(".js")).map((name) => readFileSync(path.join(dist, name), "utf8"));
    expect(code.length).toBeGreaterThan(0);
    for (const text of code) {
      expect(text).not.toMatch(/createRequire\(import\.meta\.url\)/);
      expect(text).not.toMatch(/__commonJSMin/);
    }
  });

  it.each(["core", "plugins/mcp"])("%s: no module imports the full typebox entry at load (the tool checks load the compiler when they first run)", (dir) => {
    const dist = path.join(root, dir, "dist");
    const modules = readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".js"));
    expect(modules.length).toBeGreaterThan(0);
    for (const file of modules) expect(readFileSync(path.join(dist, file), "utf8"), file).not.toMatch(/from\s*"@weft\/sdk\/typebox"/);
  });
});
