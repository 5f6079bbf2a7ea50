import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

describe("a stdio server's pipe", () => {
  let kernel: Kernel;

  beforeAll(async () => {
    kernel = await createTestKernel([[mcp, { config: { mcpServers: { s: stdio("test") } } }]]);
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("takes a round of calls larger than it holds: each is answered, and the writes waiting for it to drain wait together", async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      // 40 × 4 KB is ten times what the pipe's writer buffers before it says "wait for drain".
      const texts = Array.from({ length: 40 }, (_, index) => `${index}:${"x".repeat(4096)}`);
      const results = await Promise.all(texts.map((text) => kernel.execute({ name: "s__echo", arguments: { text } })));
      expect(results.map((result) => result.output)).toEqual(texts);
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });
});
