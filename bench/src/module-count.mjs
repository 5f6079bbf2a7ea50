// `node --import ./module-count.mjs …` with COLD_START_MODULES=<file>: writes there, one a line, every
// module file the process loaded: ES modules through the loader hooks, CommonJS ones (yaml, tapable,
// turndown…, which no ESM hook sees under Node 20) from require's cache at exit. cold-start.mjs counts them.
import { appendFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import { pathToFileURL } from "node:url";

const file = process.env.COLD_START_MODULES;
if (file) {
  register("./module-count-hooks.mjs", import.meta.url, { data: { file } });
  const { cache } = createRequire(import.meta.url);
  process.on("exit", () => appendFileSync(file, Object.keys(cache).map((name) => `${pathToFileURL(name).href}\n`).join("")));
}
