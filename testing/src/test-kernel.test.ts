import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { PLUGIN_API_VERSION, definePlugin, defineTool, memoryLogger } from "@weft/sdk";
import { createTestKernel } from "./index.js";

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
