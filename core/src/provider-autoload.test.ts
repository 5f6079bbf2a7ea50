import { describe, expect, it } from "vitest";
import { createKernel } from "./kernel.js";

describe("createModel with no provider plugin applied", () => {
  it("loads the first-party plugin of the provider by name when it is installed", async () => {
    const kernel = createKernel({ baseDir: import.meta.dirname });
    expect(kernel.providers()).toEqual([]);
    const model = await kernel.createModel("ollama/llama3.2");
    expect(`${model.provider}/${model.model}`).toBe("ollama/llama3.2");
    expect(kernel.plugins().map((plugin) => plugin.name)).toEqual(["@weft/plugin-ollama"]);
    await kernel.close();
  });
});
