import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertPluginsInstalled } from "./missing-plugins.js";

describe("assertPluginsInstalled", () => {
  let empty: string;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(tmpdir(), "weft-no-plugins-"));
  });
  afterAll(() => rm(empty, { recursive: true, force: true }));

  it("reports every missing plugin at once with one npm install line", () => {
    const specs = ["@weft/plugin-shell", "@weft/plugin-files", "@weft/plugin-web", "@weft/plugin-coding", "@weft/plugin-shell"].map((name) => ({ name }));
    expect(() => assertPluginsInstalled(specs, [empty])).toThrow(
      "4 plugins are not installed: @weft/plugin-shell, @weft/plugin-files, @weft/plugin-web, @weft/plugin-coding. Install them: npm install @weft/plugin-shell @weft/plugin-files @weft/plugin-web @weft/plugin-coding",
    );
  });

  it("leaves a single missing plugin, paths and plugin objects to the loader", () => {
    expect(() => assertPluginsInstalled([{ name: "jira" }, { name: "./pack.js" }, { name: "./other.js" }], [empty])).not.toThrow();
  });

  it("counts a plugin installed in any of the folders as present", () => {
    const workspace = path.resolve(import.meta.dirname, "../../..");
    const installed = assertPluginsInstalled([{ name: "shell" }, { name: "files" }], [empty, workspace]);
    expect([...installed.keys()]).toEqual(["shell", "files"]);
    expect(installed.get("shell")).toBe(pathToFileURL(path.join(workspace, "plugins/shell/dist/index.js")).href);
  });
});
