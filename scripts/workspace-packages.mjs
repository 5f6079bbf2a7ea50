// The workspace's publishable packages (not private), dependencies before their dependents, so that
// building them one after another finds the dist of everything each one imports.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** @returns {{ dir: string, manifest: Record<string, any> }[]} */
export function publishablePackages() {
  const { workspaces } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const dirs = workspaces.flatMap((pattern) =>
    pattern.endsWith("/*") ? readdirSync(path.join(ROOT, pattern.slice(0, -2))).map((name) => `${pattern.slice(0, -1)}${name}`) : [pattern],
  );
  const packages = dirs
    .filter((dir) => existsSync(path.join(ROOT, dir, "package.json")))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(path.join(ROOT, dir, "package.json"), "utf8")) }))
    .filter(({ manifest }) => !manifest.private);
  const byName = new Map(packages.map((entry) => [entry.manifest.name, entry]));
  const ordered = [];
  const visit = (entry) => {
    if (ordered.includes(entry)) return;
    const { dependencies = {}, peerDependencies = {}, devDependencies = {} } = entry.manifest;
    for (const name of Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })) {
      const dependency = byName.get(name);
      if (dependency && dependency !== entry) visit(dependency);
    }
    ordered.push(entry);
  };
  packages.forEach(visit);
  return ordered;
}
