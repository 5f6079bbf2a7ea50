import { mkdir, mkdtemp, realpath, rm, symlink } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import { definePlugin, memoryLogger } from "@weft/sdk";
import { createKernel } from "../kernel.js";
import { configLoader, writePackage } from "../test-fixtures/config-projects.js";

const require = createRequire(import.meta.url);

/** The installed folder of a package (its package.json's folder), to link into the temp project. */
function packageDir(name: string): string {
  let dir = path.dirname(require.resolve(name));
  while (path.basename(dir) !== name.split("/").at(-1)) dir = path.dirname(dir);
  return dir;
}

/** A plugin whose options are a Standard Schema; its one tool reports the options `setup` received. */
function pluginSource(name: string, imports: string, schema: string): string {
  return `${imports}
export default {
  meta: { name: ${JSON.stringify(name)}, version: "1.0.0", api: 1 },
  options: ${schema},
  setup(api, options) {
    api.hooks.tools.tap((tools) => {
      tools.add({
        name: "report",
        description: "the options",
        inputSchema: { type: "object", properties: {} },
        execute: async () => ({ output: JSON.stringify(options) }),
      });
    });
  },
};
`;
}

const PLUGINS = {
  "weft-plugin-zodded": pluginSource(
    "weft-plugin-zodded",
    'import { z } from "zod";',
    "z.object({ root: z.string().transform((root) => root.replace(/\\/$/, '')), depth: z.number().int().min(1).default(2) })",
  ),
  "weft-plugin-valibotted": pluginSource(
    "weft-plugin-valibotted",
    'import * as v from "valibot";\nimport { toStandardJsonSchema } from "@valibot/to-json-schema";',
    "toStandardJsonSchema(v.object({ root: v.string(), depth: v.optional(v.number(), 2) }))",
  ),
  "weft-plugin-arked": pluginSource("weft-plugin-arked", 'import { type } from "arktype";', 'type({ root: "string", depth: "number = 2" })'),
  "weft-plugin-plainvalibot": pluginSource("weft-plugin-plainvalibot", 'import * as v from "valibot";', "v.object({ root: v.string() })"),
};

describe("plugin options declared with a Standard Schema (zod, valibot, arktype)", () => {
  let project: string;

  beforeAll(async () => {
    project = await realpath(await mkdtemp(path.join(tmpdir(), "weft-standard-options-")));
    const modules = path.join(project, "node_modules");
    await mkdir(path.join(modules, "@valibot"), { recursive: true });
    // The libraries themselves, linked from this workspace: the project resolves them as its own.
    for (const name of ["zod", "valibot", "arktype", "@valibot/to-json-schema"]) await symlink(packageDir(name), path.join(modules, name));
    for (const [name, source] of Object.entries(PLUGINS)) await writePackage(project, name, source, "1.0.0");
  });
  afterAll(() => rm(project, { recursive: true, force: true }));

  const { load, loadError } = configLoader(() => project);

  async function report(config: string): Promise<unknown> {
    const { kernel } = await load(config);
    try {
      return JSON.parse((await kernel.execute({ name: "report", arguments: {} })).output);
    } finally {
      await kernel.close();
    }
  }

  it("hands setup the library's output: defaults and transforms applied", async () => {
    expect(await report("plugins:\n  - zodded: { root: ./ws/ }\n")).toEqual({ root: "./ws", depth: 2 });
    expect(await report("plugins:\n  - valibotted: { root: ./ws }\n")).toEqual({ root: "./ws", depth: 2 });
    expect(await report("plugins:\n  - arked: { root: ./ws }\n")).toEqual({ root: "./ws", depth: 2 });
  });

  it("names the file, line, column and option of a typo, which the libraries would strip silently", async () => {
    const typo = await loadError("plugins:\n  - zodded: { root: ./ws, rot: ./ws }\n");
    expect(typo.code).toBe("CONFIG_INVALID");
    expect(typo.message).toBe(
      `${project}/weft.config.yaml:2:32 (option plugins[0].zodded.rot): invalid option for weft-plugin-zodded: is not an option (known: root, depth)`,
    );
    const valibotTypo = await loadError("plugins:\n  - valibotted:\n      root: ./ws\n      dpeth: 3\n");
    expect(valibotTypo.message).toBe(
      `${project}/weft.config.yaml:4:14 (option plugins[0].valibotted.dpeth): invalid option for weft-plugin-valibotted: is not an option (known: root, depth)`,
    );
  });

  it("names the failing option with the library's own message", async () => {
    const zod = await loadError("plugins:\n  - zodded: { root: ./ws, depth: 0 }\n");
    expect(zod.message).toBe(
      `${project}/weft.config.yaml:2:34 (option plugins[0].zodded.depth): invalid option for weft-plugin-zodded: Too small: expected number to be >=1`,
    );
    const valibot = await loadError("plugins:\n  - valibotted: { root: 42 }\n");
    expect(valibot.message).toBe(
      `${project}/weft.config.yaml:2:25 (option plugins[0].valibotted.root): invalid option for weft-plugin-valibotted: Invalid type: Expected string but received 42`,
    );
    const arktype = await loadError("plugins:\n  - arked: {}\n");
    expect(arktype.message).toBe(`${project}/weft.config.yaml:2:12 (option plugins[0].arked.root): invalid option for weft-plugin-arked: root must be a string (was missing)`);
  });

  it("refuses an options schema that cannot export JSON Schema, naming the plugin", async () => {
    const error = await loadError("plugins:\n  - plainvalibot: { root: ./ws }\n");
    expect(error.message).toBe(
      `${project}/weft.config.yaml:2:19 (option plugins[0].plainvalibot): plugin weft-plugin-plainvalibot options: the valibot schema cannot export JSON Schema (no ~standard.jsonSchema); wrap it with toStandardJsonSchema from @valibot/to-json-schema`,
    );
  });

  it("types setup's options as the schema's output, in code as well", async () => {
    let received: unknown;
    const plugin = definePlugin({
      meta: { name: "in-code", version: "1.0.0", api: 1 },
      options: z.object({ root: z.string(), depth: z.number().default(2) }),
      setup(_api, options) {
        expectTypeOf(options).toEqualTypeOf<{ root: string; depth: number }>();
        received = options;
      },
    });
    const kernel = createKernel({ logger: memoryLogger() });
    await kernel.use(plugin, { root: "/srv" });
    expect(received).toEqual({ root: "/srv", depth: 2 });
    await expect(kernel.use({ ...plugin, meta: { ...plugin.meta, name: "in-code-2" } }, { root: 1 })).rejects.toThrow(
      "invalid options for in-code-2: /root Invalid input: expected string, received number",
    );
    await kernel.close();
  });
});
