import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importPlugin } from "./plugin-resolver.js";

// What a user reads when a plugin named in a config cannot be loaded from the project's node_modules.
describe("importPlugin's errors", () => {
  let project: string;
  const install = async (name: string, manifest: string, files: Record<string, string> = {}) => {
    const dir = path.join(project, "node_modules", name);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "package.json"), manifest);
    for (const [file, text] of Object.entries(files)) await writeFile(path.join(dir, file), text);
  };

  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-plugin-resolver-")));
    await install("weft-plugin-sealed", JSON.stringify({ type: "module", exports: { "./internal": "./internal.js" } }), { "internal.js": "export default {};\n" });
    await install("weft-plugin-hollow", JSON.stringify({ type: "module", main: "./gone.js" }));
    await install("weft-plugin-broken", "{ not json");
    await install("@weft/plugin-mis-target", JSON.stringify({ exports: "../outside.js" }));
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  it("lists every candidate of a plugin nobody installed and says how to install it", async () => {
    await expect(importPlugin("jira", project)).rejects.toMatchObject({
      code: "PLUGIN_NOT_FOUND",
      message: `plugin "jira" not found from ${project}; tried @weft/plugin-jira, weft-plugin-jira, jira. Install it: npm install @weft/plugin-jira`,
    });
  });

  it("names the package, not the subpath, in the install advice for a subpath the package does not export", async () => {
    const manifest = path.join(project, "node_modules/weft-plugin-sealed/package.json");
    await expect(importPlugin("weft-plugin-sealed/../../etc/passwd", project)).rejects.toMatchObject({
      code: "PLUGIN_NOT_FOUND",
      message:
        `plugin "weft-plugin-sealed/../../etc/passwd" not found from ${project}; tried weft-plugin-sealed/../../etc/passwd; ` +
        `installed but not importable: weft-plugin-sealed/../../etc/passwd (Package subpath './../../etc/passwd' is not defined by "exports" in ${manifest}). ` +
        "Install it: npm install weft-plugin-sealed",
    });
  });

  it("says why a candidate that is installed cannot be imported: no main export, no main file", async () => {
    const manifest = path.join(project, "node_modules/weft-plugin-sealed/package.json");
    await expect(importPlugin("sealed", project)).rejects.toMatchObject({
      code: "PLUGIN_NOT_FOUND",
      message:
        `plugin "sealed" not found from ${project}; tried @weft/plugin-sealed, weft-plugin-sealed, sealed; ` +
        `installed but not importable: weft-plugin-sealed (No "exports" main defined in ${manifest}). Install it: npm install @weft/plugin-sealed`,
    });
    const hollow = path.join(project, "node_modules/weft-plugin-hollow");
    await expect(importPlugin("hollow", project)).rejects.toMatchObject({
      code: "PLUGIN_NOT_FOUND",
      message:
        `plugin "hollow" not found from ${project}; tried @weft/plugin-hollow, weft-plugin-hollow, hollow; ` +
        `installed but not importable: weft-plugin-hollow (${hollow} has no main file (its "main" "./gone.js" does not exist, nor does index.js)). Install it: npm install @weft/plugin-hollow`,
    });
  });

  it("names the package and its package.json when that file is broken", async () => {
    await expect(importPlugin("broken", project)).rejects.toMatchObject({
      code: "PLUGIN_INVALID",
      message: expect.stringMatching(
        new RegExp(`^plugin "broken" \\(weft-plugin-broken\\) cannot be resolved: Invalid package config ${project}/node_modules/weft-plugin-broken/package.json: `),
      ),
    });
    await expect(importPlugin("mis-target", project)).rejects.toMatchObject({
      code: "PLUGIN_INVALID",
      message: `plugin "mis-target" (@weft/plugin-mis-target) cannot be resolved: Invalid "exports" main target "../outside.js" in ${project}/node_modules/@weft/plugin-mis-target/package.json; targets must start with "./"`,
    });
  });
});
