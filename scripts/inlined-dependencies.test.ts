import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// A dependency that a build copies in (`bundle-dist.mjs --inline <dep>`) is one copy per application
// only if no other package brings its own: the others import it through the package that holds it
// (`@weft/sdk/typebox`, `@weft/sdk/yaml`). Read from the built dist folders, as the test command leaves them.
const root = fileURLToPath(new URL("..", import.meta.url));
const packages = ["sdk", "core", "cli", "testing", "toolkit", "sessions", "restate", ...readdirSync(path.join(root, "plugins")).map((name) => `plugins/${name}`)]
  .filter((dir) => existsSync(path.join(root, dir, "package.json")))
  .map((dir) => {
    const manifest: unknown = JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8"));
    const build = typeof manifest === "object" && manifest !== null && "scripts" in manifest ? JSON.stringify(manifest.scripts) : "";
    return { dir, inlines: [...build.matchAll(/--inline (\S+?)(?=["\s\\])/g)].map(([, name]) => name ?? "") };
  });

/** The bare specifiers a dist module imports or requires at run time (inlined code left out: its holder is not scanned). */
function runtimeImports(dir: string): Set<string> {
  const dist = path.join(root, dir, "dist");
  const found = new Set<string>();
  if (!existsSync(dist)) return found;
  for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((name) => name.endsWith(".js"))) {
    const code = readFileSync(path.join(dist, file), "utf8");
    for (const [, , specifier] of code.matchAll(/(from\s*|import\(\s*|require\(\s*)["']([^"'./][^"']*)["']/g)) found.add(specifier ?? "");
  }
  return found;
}

/** Second copies known and left: see the comment of each. */
const ALLOWED = new Map([
  // mcp.json positions are read in a synchronous call, with require: `@weft/sdk/yaml` is ESM, which Node 20.0-20.18 cannot require.
  ["plugins/mcp", ["yaml"]],
  // Resolves the AI SDK provider packages from the project; nothing weft exports resolves a module.
  ["plugins/ai-sdk", ["import-meta-resolve"]],
]);

describe("dependencies copied into a bundle", () => {
  const inlined = packages.flatMap(({ dir, inlines }) => inlines.map((name) => ({ name, holder: dir })));

  it("are each copied by one package", () => {
    expect(inlined.map(({ name }) => name).sort()).toEqual([...new Set(inlined.map(({ name }) => name))].sort());
    expect(inlined).toContainEqual({ name: "yaml", holder: "sdk" });
  });

  it.each(packages.map(({ dir }) => dir))("%s loads no copy of its own of a dependency another package holds", (dir) => {
    const imports = runtimeImports(dir);
    const own = inlined.filter(({ name, holder }) => holder !== dir && !ALLOWED.get(dir)?.includes(name) && [...imports].some((specifier) => specifier === name || specifier.startsWith(`${name}/`)));
    expect(own).toEqual([]);
  });
});
