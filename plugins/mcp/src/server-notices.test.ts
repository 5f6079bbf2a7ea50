import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { memoryLogger, type Kernel, type MemoryLogger } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp from "./index.js";
import { WAIT, feedbackRecorder, mcpHost, stdio } from "./test-fixtures/harness.js";

/** What servers tell the host besides tool results, and the `mcp` service calls that go with it. */
describe("server notifications", () => {
  let kernel: Kernel;
  let logger: MemoryLogger;
  const recorder = feedbackRecorder();

  beforeAll(async () => {
    logger = memoryLogger();
    kernel = await createTestKernel([recorder.plugin, [mcp, { config: { mcpServers: { t: stdio("test"), chatty: { ...stdio("test"), logLevel: "debug" } } } }]], { logger });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("sets the log level (default warning) and routes log messages to the logger and feedback, tagged with the server", async () => {
    await kernel.execute({ name: "t__notify", arguments: {} });
    await kernel.execute({ name: "chatty__notify", arguments: {} });
    await vi.waitFor(() => expect(recorder.events.filter((event) => event.type === "mcp.log")).toHaveLength(3), WAIT);
    expect(recorder.events.filter((event) => event.type === "mcp.log")).toEqual([
      { type: "mcp.log", server: "t", level: "warning", logger: "disk", data: { free: "2%" } },
      { type: "mcp.log", server: "chatty", level: "debug", data: "a debug detail" },
      { type: "mcp.log", server: "chatty", level: "warning", logger: "disk", data: { free: "2%" } },
    ]);
    expect(logger.warnings()).toContain('mcp t (disk): {"free":"2%"}');
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: "debug", message: "mcp chatty: a debug detail" }));
  });

  it("reports prompt and resource list changes, and updates of subscribed resources until unsubscribed", async () => {
    const host = mcpHost(kernel);
    await host.subscribe("t", "test://note");
    recorder.events.length = 0;
    await kernel.execute({ name: "t__notify", arguments: {} });
    await vi.waitFor(() => expect(recorder.events.some((event) => event.type === "mcp.resource-updated")).toBe(true), WAIT);
    expect(recorder.events.filter((event) => !["mcp.log", "mcp.request", "mcp.response"].includes(event.type) && event.type.startsWith("mcp."))).toEqual([
      { type: "mcp.prompts-changed", server: "t" },
      { type: "mcp.resources-changed", server: "t" },
      { type: "mcp.resource-updated", server: "t", uri: "test://note" },
    ]);

    await host.unsubscribe("t", "test://note");
    recorder.events.length = 0;
    await kernel.execute({ name: "t__notify", arguments: {} });
    await vi.waitFor(() => expect(recorder.events.some((event) => event.type === "mcp.resources-changed")).toBe(true), WAIT);
    expect(recorder.events.some((event) => event.type === "mcp.resource-updated")).toBe(false);
  });
});

describe("resource templates and completion (server-everything)", () => {
  let kernel: Kernel;

  beforeAll(async () => {
    kernel = await createTestKernel([[mcp, { config: { mcpServers: { everything: stdio("everything") } } }]], { logger: memoryLogger() });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  it("lists resource templates and reads one filled in", async () => {
    const host = mcpHost(kernel);
    const templates = await host.resourceTemplates();
    const text = templates.find((template) => template.name === "Dynamic Text Resource");
    expect(text).toMatchObject({ server: "everything", uriTemplate: expect.stringContaining("{") });
    const uri = (text?.uriTemplate ?? "").replace(/\{[^}]+\}/, "1");
    const [contents] = await host.readResource("everything", uri);
    expect(contents).toMatchObject({ uri, text: expect.any(String) });
  });

  it("completes a prompt argument, using the arguments already given", async () => {
    const host = mcpHost(kernel);
    expect(await host.complete("everything", { prompt: "completable-prompt", argument: { name: "department", value: "S" } })).toMatchObject({ values: ["Sales", "Support"] });
    expect(
      await host.complete("everything", { prompt: "completable-prompt", argument: { name: "name", value: "" }, context: { department: "Engineering" } }),
    ).toMatchObject({ values: ["Alice", "Bob", "Charlie"] });
  });

  it("refuses a subscription the server does not offer with a clear error", async () => {
    const plain = await createTestKernel([[mcp, { config: { mcpServers: { bare: stdio("test", "--no-tools") } } }]], { logger: memoryLogger() });
    try {
      await expect(mcpHost(plain).subscribe("bare", "test://note")).rejects.toThrow('MCP server "bare" does not offer resource subscriptions');
    } finally {
      await plain.close();
    }
  });
});
