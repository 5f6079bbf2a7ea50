// Replaces the compiled `dist/typebox.js` of @weft/sdk (three re-exports of typebox's entry points) with
// one bundled module holding them, typebox's license on top (MIT asks for it in copies). Run by the sdk's
// build after tsc, from the sdk folder: node scripts/bundle-typebox.mjs
import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { build } from "rolldown";

const entry = path.resolve("dist/typebox.js");
// typebox exports no ./package.json; its root entry is build/index.mjs.
const typeboxRoot = path.resolve(path.dirname(createRequire(entry).resolve("typebox")), "..");
const { version } = JSON.parse(readFileSync(path.join(typeboxRoot, "package.json"), "utf8"));
const license = readFileSync(path.join(typeboxRoot, "license"), "utf8").trim();
await build({
  input: entry,
  platform: "node",
  logLevel: "warn",
  output: {
    file: entry,
    format: "esm",
    sourcemap: false,
    banner: `/*! typebox ${version}, bundled for @weft/sdk\n${license}\n*/`,
  },
});
// The map tsc wrote describes the three-line file, not the bundle.
rmSync(`${entry}.map`, { force: true });
