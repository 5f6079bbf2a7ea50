import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { memoryLogger } from "@weft/sdk";
import { loadProject } from "../config/load-project.js";

/** Installs package `name` into `dir`'s node_modules: a package.json and its one module, `source`. */
export async function writePackage(dir: string, name: string, source: string, version = "1.2.3"): Promise<void> {
  const folder = path.join(dir, "node_modules", name);
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, "package.json"), JSON.stringify({ name, version, type: "module", exports: "./index.js" }));
  await writeFile(path.join(folder, "index.js"), source);
}

/**
 * Loads a project from a config text written to `project()`'s weft.config.yaml, from the working
 * directory `cwd()` (both read when called: test folders are made in `beforeAll`).
 */
export function configLoader(project: () => string, cwd: () => string = project) {
  async function load(config: string) {
    await writeFile(path.join(project(), "weft.config.yaml"), config);
    return loadProject({ cwd: cwd(), config: path.join(project(), "weft.config.yaml"), logger: memoryLogger() });
  }
  /** The error the load fails with; a load that succeeds fails the test. */
  async function loadError(config: string): Promise<{ message: string; code: string }> {
    try {
      const loaded = await load(config);
      await loaded.kernel.close();
    } catch (error) {
      return error as { message: string; code: string };
    }
    throw new Error("expected loadProject to fail");
  }
  return { load, loadError };
}
