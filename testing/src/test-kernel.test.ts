import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, definePlugin, defineTool, memoryLogger } from "@weft/sdk";
import { createTestKernel, defined, testKernels } from "./index.js";

const echo = definePlugin({
  meta: { name: "weft-plugin-echo", version: "0.1.0", api: PLUGIN_API_VERSION },
  options: Type.Object({ prefix: Type.String({ default: "" }) }),
  setup(api, { prefix }) {
    api.tools.add(defineTool({ name: "echo", description: "Echo the text", input: Type.Object({ text: Type.String() }), execute: ({ text }) => `${prefix}${text}` }));
    api.logger.info(api.waitFor ? "answers pending requests" : "no waitFor");
  },
});

describe("createTestKernel", () => {
  it("applies plugins with their options and hands the kernel options to them", async () => {
    const logger = memoryLogger();
    const kernel = await createTestKernel([[echo, { prefix: "> " }]], { logger, waitFor: async () => ({ action: "cancel" }) });
    expect(await kernel.execute({ name: "echo", arguments: { text: "hi" } })).toEqual({ output: "> hi" });
    expect(logger.lines.map((line) => line.message)).toEqual(["answers pending requests"]);
    await kernel.close();
  });

  it("rejects with the plugin's typed error when its options are bad", async () => {
    await expect(createTestKernel([[echo, { prefix: 1 }]])).rejects.toMatchObject({ code: "PLUGIN_OPTIONS_INVALID" });
  });
});

describe("testKernels", () => {
  it("closes every kernel it opened when the runner's afterEach hook runs, and only then", async () => {
    const hooks: (() => Promise<void>)[] = [];
    const closed: string[] = [];
    const closing = (name: string) =>
      definePlugin({
        meta: { name, version: "0.1.0", api: PLUGIN_API_VERSION },
        setup: () => () => void closed.push(name),
      });
    const open = testKernels((hook) => void hooks.push(hook));
    expect(hooks).toHaveLength(1);
    await open([closing("weft-plugin-a")]);
    await open([closing("weft-plugin-b")]);
    expect(closed).toEqual([]);
    await defined(hooks[0], "the afterEach hook")();
    expect(closed.sort()).toEqual(["weft-plugin-a", "weft-plugin-b"]);
    // The kernels are forgotten once closed: the next test's hook closes nothing twice.
    await defined(hooks[0], "the afterEach hook")();
    expect(closed).toHaveLength(2);
  });
});
