import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { definePlugin, PLUGIN_API_VERSION, type Plugin } from "../plugin.js";
import type { McpHost, McpServerConfig } from "../mcp-host.js";

/**
 * A plugin to apply between @weft/plugin-mcp and a pack under test: it records every `addServer` the
 * pack asks of the real MCP host (into `seen`) and passes everything on to it.
 */
export function recordingMcpHost(seen: { name: string; config: McpServerConfig }[]): Plugin {
  return definePlugin({
    meta: { name: "recording-mcp-host", version: "1.0.0", api: PLUGIN_API_VERSION },
    setup(api) {
      const host = api.need("mcp");
      const addServer: McpHost["addServer"] = (name, config, options) => {
        seen.push({ name, config: structuredClone(config) });
        return host.addServer(name, config, options);
      };
      api.provide(
        "mcp",
        new Proxy(host, {
          get: (target, key) => {
            if (key === "addServer") return addServer;
            const value = Reflect.get(target, key, target);
            return typeof value === "function" ? value.bind(target) : value;
          },
        }),
        { replaces: true },
      );
    },
  });
}

/** An executable on a test's PATH that stands in for a real program (`donsetch`, `uvx`). */
export interface StandIn {
  /** The folder to put first on PATH. */
  bin: string;
  /** The arguments of the last run. */
  argv(): Promise<string[]>;
  /** The pid of the last run. */
  pid(): Promise<number>;
}

/**
 * Writes `<dir>/bin/<name>`: a shell script that records its arguments and pid, then execs this node
 * on `script` (an MCP server of the test's own), so the pack starts a real server under the real name.
 */
export async function installStandIn(dir: string, name: string, script: string): Promise<StandIn> {
  const bin = path.join(dir, "bin");
  await mkdir(bin, { recursive: true });
  const file = path.join(bin, name);
  await writeFile(file, `#!/bin/sh\nprintf '%s\\n' "$@" > '${dir}/${name}.argv'\necho $$ > '${dir}/${name}.pid'\nexec '${process.execPath}' '${script}'\n`);
  await chmod(file, 0o755);
  return {
    bin,
    argv: async () => (await readFile(path.join(dir, `${name}.argv`), "utf8")).split("\n").slice(0, -1),
    pid: async () => Number(await readFile(path.join(dir, `${name}.pid`), "utf8")),
  };
}

/** A stand-in first on PATH for a whole test file (see `standInOnPath`). */
export interface StandInOnPath extends StandIn {
  /** Runs `fn` with a PATH that has no programs at all, to test a pack whose program is missing. */
  offPath<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * Installs a stand-in (`installStandIn`) in a fresh temporary folder before a file's tests and puts it
 * first on PATH; after them, restores PATH and removes the folder. Pass the runner's hooks:
 *
 *   const uvx = standInOnPath("uvx", SCRIPT, { beforeAll, afterAll });
 */
export function standInOnPath(
  name: string,
  script: string,
  hooks: { beforeAll(fn: () => Promise<void>): void; afterAll(fn: () => Promise<void>): void },
): StandInOnPath {
  const savedPath = process.env.PATH;
  let installed: (StandIn & { dir: string }) | undefined;
  const current = () => {
    if (!installed) throw new Error(`the ${name} stand-in is installed in beforeAll; use it inside a test`);
    return installed;
  };
  hooks.beforeAll(async () => {
    const dir = await realpath(await mkdtemp(path.join(tmpdir(), `weft-${name}-`)));
    installed = { dir, ...(await installStandIn(dir, name, script)) };
    process.env.PATH = `${installed.bin}${path.delimiter}${savedPath}`;
  });
  hooks.afterAll(async () => {
    process.env.PATH = savedPath;
    if (installed) await rm(installed.dir, { recursive: true, force: true });
  });
  return {
    get bin() {
      return current().bin;
    },
    argv: () => current().argv(),
    pid: () => current().pid(),
    async offPath(fn) {
      const { dir, bin } = current();
      // A folder that does not exist: not even a system copy of the program can be found.
      process.env.PATH = path.join(dir, "empty");
      try {
        return await fn();
      } finally {
        process.env.PATH = `${bin}${path.delimiter}${savedPath}`;
      }
    },
  };
}
