import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { WAIT, stdio } from "./test-fixtures/harness.js";

/** `tools/call` as weft sends it itself (McpClient.sendToolCall), seen from a server that shows the wire. */
describe("tools/call on the wire", () => {
  let kernel: Kernel;

  beforeAll(async () => {
    kernel = await createTestKernel([[mcp, { config: { mcpServers: { wire: stdio("wire") } } }]]);
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  const output = async (name: string) => JSON.parse((await kernel.execute({ name: `wire__${name}`, arguments: {} })).output) as unknown;

  it("carries ids of its own, strings that never meet the SDK's", async () => {
    const ids = (await output("ids")) as unknown[];
    // Before it: the SDK's server/discover probe, initialize and tools/list.
    expect(ids.at(-1)).toBe("weft-call:1");
    expect(ids.slice(0, -1).filter((id) => String(id).startsWith("weft-call:"))).toEqual([]);
    expect(((await output("ids")) as unknown[]).at(-1)).toBe("weft-call:2");
  });

  it("tells the server which call an abort cancels", async () => {
    const before = (await output("cancelled")) as unknown[];
    // The calls are numbered in the order they are sent: the hang is the one after this.
    const last = Number(String(((await output("ids")) as unknown[]).at(-1)).replace("weft-call:", ""));
    const hang = `weft-call:${last + 1}`;
    const controller = new AbortController();
    const running = kernel.execute({ name: "wire__hang", arguments: {} }, { signal: controller.signal });
    await vi.waitFor(async () => expect(await output("ids")).toContain(hang), WAIT);
    controller.abort();
    expect(await running).toMatchObject({ output: "wire__hang was aborted", isError: true });
    await vi.waitFor(async () => expect(await output("cancelled")).toEqual([...before, hang]), WAIT);
  });

  it("gives the model a result it cannot read as an error saying why", async () => {
    expect(await kernel.execute({ name: "wire__unreadable", arguments: {} })).toMatchObject({
      output: 'MCP server "wire" failed to run unreadable: Invalid result for tools/call: its tools/call result cannot be read: `content` is not a list',
      isError: true,
    });
  });

  it("gives the model a JSON-RPC error in the server's words", async () => {
    expect(await kernel.execute({ name: "wire__refuse", arguments: {} })).toMatchObject({
      output: 'MCP server "wire" failed to run refuse: refuse takes no calls today',
      isError: true,
    });
  });
});
