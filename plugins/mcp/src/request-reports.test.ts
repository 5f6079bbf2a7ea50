import { afterEach, beforeEach, expect, it } from "vitest";
import { memoryLogger, type FeedbackEvent, type Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { Manager, parseMcpConfig } from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

let kernel: Kernel;
let manager: Manager;
let events: FeedbackEvent[];
let watching: boolean;

beforeEach(async () => {
  kernel = await createTestKernel();
  events = [];
  watching = false;
  manager = new Manager({ tools: kernel.scope("mcp-manager").tools, emit: (event) => events.push(event), observed: () => watching, logger: memoryLogger() });
  for (const spec of parseMcpConfig({ mcpServers: { one: stdio("test") } })) manager.register(spec);
  await manager.startAll();
});

afterEach(async () => {
  await manager.close();
  await kernel.close();
});

const reports = () => events.filter((event) => event.type === "mcp.request" || event.type === "mcp.response").map((event) => `${event.type} ${event.method}`);

it("reports the requests sent while someone observes, with the protocol version the unobserved handshake set", async () => {
  // The handshake's `initialize` is followed even unobserved: its answer is the protocol version.
  expect(reports()).toEqual(["mcp.request initialize", "mcp.response initialize"]);
  events.length = 0;
  expect((await kernel.execute({ name: "one__echo", arguments: { text: "unseen" } })).output).toBe("unseen");
  expect(reports()).toEqual([]);

  watching = true;
  expect((await kernel.execute({ name: "one__echo", arguments: { text: "seen" } })).output).toBe("seen");
  expect(events.filter((event) => event.type === "mcp.request" || event.type === "mcp.response")).toEqual([
    expect.objectContaining({ type: "mcp.request", method: "tools/call", target: "echo", server: "one", protocolVersion: "2025-11-25" }),
    expect.objectContaining({ type: "mcp.response", method: "tools/call", server: "one", protocolVersion: "2025-11-25" }),
  ]);

  watching = false;
  events.length = 0;
  await kernel.execute({ name: "one__echo", arguments: { text: "unseen again" } });
  expect(reports()).toEqual([]);
}, 60_000);

it("ends a request followed while observed even when nobody observes its answer any more", async () => {
  watching = true;
  const call = kernel.execute({ name: "one__echo", arguments: { text: "slow" } });
  watching = false;
  await call;
  expect(reports().filter((report) => !report.includes("initialize"))).toEqual(["mcp.request tools/call", "mcp.response tools/call"]);
}, 60_000);
