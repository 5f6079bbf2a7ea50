// `npm run pack [-- --out <folder>]`: every publishable package as the registry would get it, one
// tarball each in one folder (default ./tarballs). Each `npm pack` runs the package's own prepack
// build, so this also proves a clean pack ships its code.
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { publishablePackages, ROOT } from "./workspace-packages.mjs";

const { values } = parseArgs({ options: { out: { type: "string" } } });
const out = path.resolve(values.out ?? path.join(ROOT, "tarballs"));
mkdirSync(out, { recursive: true });
for (const stale of readdirSync(out).filter((file) => file.endsWith(".tgz"))) rmSync(path.join(out, stale));
for (const { dir } of publishablePackages()) {
  const [packed] = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: path.join(ROOT, dir), encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
  console.log(path.join(out, packed.filename));
}
