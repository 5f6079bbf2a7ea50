import { describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION, definePlugin } from "@weft/sdk";
import { createKernel } from "./kernel.js";

describe("values echoed into errors", () => {
  it("caps a 10 MB property name in an invalid-arguments result, and a 10 MB unknown tool name", async () => {
    const kernel = createKernel();
    await kernel.use(
      definePlugin({
        meta: { name: "strict", version: "1.0.0", api: PLUGIN_API_VERSION },
        setup(api) {
          api.tools.add({
            name: "strict",
            description: "Strict",
            inputSchema: { type: "object", additionalProperties: { type: "string" } },
            execute: async () => ({ output: "ran" }),
          });
        },
      }),
    );
    const huge = "p".repeat(10 * 1024 * 1024);
    const invalid = await kernel.execute({ name: "strict", arguments: { [huge]: 1 } });
    expect(invalid.isError).toBe(true);
    expect(invalid.output.startsWith(`invalid arguments for strict:\n- /${"p".repeat(199)}… (`)).toBe(true);
    expect(invalid.output.length).toBeLessThan(1000);
    const unknown = await kernel.execute({ name: huge, arguments: {} });
    expect(unknown.output).toBe(`unknown tool: ${"p".repeat(200)}… (${huge.length - 200} more characters). Available tools: strict`);
    await kernel.close();
  });
});
