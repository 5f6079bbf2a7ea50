import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger, type Kernel, type MemoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

/** What reaches the model from a result: its size bound, structured content, and which tools are offered at all. */
describe("results the model reads", () => {
  let kernel: Kernel;
  let logger: MemoryLogger;

  beforeAll(async () => {
    logger = memoryLogger();
    const config = { mcpServers: { s: stdio("test"), small: { ...stdio("test"), maxResultBytes: 4096 } } };
    kernel = await createTestKernel([[mcp, { config }]], { logger });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("cuts a result past maxResultBytes (default 1 MiB) and says how large it was", async () => {
    const result = await kernel.execute({ name: "s__huge", arguments: { bytes: 2_000_000 } });
    const [head, note] = result.output.split("\n");
    expect(Buffer.byteLength(head ?? "")).toBe(1024 * 1024);
    expect(note).toBe("[result truncated: it was 2000000 bytes; only the first 1048576 are shown (the server's maxResultBytes is 1048576)]");
    expect(result.metadata?.truncatedFromBytes).toBe(2_000_000);
  });

  it("uses the server's own maxResultBytes and never cuts inside a character", async () => {
    const result = await kernel.execute({ name: "small__huge", arguments: { bytes: 5001 } });
    // "é" is two bytes: 4096 is a character boundary.
    expect(result.output).toBe(`${"é".repeat(2048)}\n[result truncated: it was 5000 bytes; only the first 4096 are shown (the server's maxResultBytes is 4096)]`);
    expect((await kernel.execute({ name: "small__huge", arguments: { bytes: 4000 } })).output).toBe("é".repeat(2000));
  });

  it("cuts a prompt's messages and a resource's text to the same maxResultBytes", async () => {
    const note = "\n[result truncated: it was 5000 bytes; only the first 4096 are shown (the server's maxResultBytes is 4096)]";
    const host = kernel.scope("test").need("mcp");
    expect((await host.getPrompt("small", "big", { bytes: "5000" })).messages).toEqual([{ role: "user", content: `${"é".repeat(2048)}${note}` }]);
    expect(await host.readResource("small", "test://big?bytes=5000")).toEqual([{ uri: "test://big?bytes=5000", mimeType: "text/plain", text: `${"é".repeat(2048)}${note}` }]);
    expect((await host.readResource("small", "test://big?bytes=4000"))[0]?.text).toBe("é".repeat(2000));
  });

  it("fails a call whose answer is one stdio message over 10 MiB at once, and the server stays usable", async () => {
    const result = await kernel.execute({ name: "s__huge", arguments: { bytes: 11 * 1024 * 1024 } });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/^MCP server "s" failed to run huge: the server sent a message of \d+ bytes, over the 10485760-byte limit for one stdio message; it was dropped$/);
    expect((await kernel.execute({ name: "s__echo", arguments: { text: "after" } })).output).toBe("after");
  }, 30_000);

  it("keeps the outputSchema on the tool, gives structuredContent to the model as JSON, and warns of a mismatch", async () => {
    expect(kernel.tools.get("s__measure")?.outputSchema).toEqual({ type: "object", properties: { n: { type: "number" } }, required: ["n"] });
    const fitting = await kernel.execute({ name: "s__measure", arguments: { n: 3 } });
    expect(fitting).toEqual({ output: '{"n":3}', metadata: { server: "s", tool: "measure", content: [], structuredContent: { n: 3 } } });
    const odd = await kernel.execute({ name: "s__measure", arguments: { n: "three" } });
    expect(odd.isError).toBeUndefined();
    expect(odd.output).toBe('{"n":"three"}');
    expect(odd.metadata?.outputSchemaWarning).toBe("structuredContent does not match measure's outputSchema: /n: must be number");
  });

  it("does not offer a tool that runs only as an MCP task", () => {
    expect(kernel.tools.get("s__research")).toBeUndefined();
    expect(logger.lines.map((line) => line.message)).toContain('MCP server "s": "research" run only as MCP tasks, and the server declares no task support for tools/call; not offered');
  });
});
