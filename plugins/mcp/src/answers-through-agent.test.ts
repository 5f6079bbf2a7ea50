import { createAgent } from "@weft/core";
import { memoryLogger, type Kernel, type PendingAnswer } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import mcp from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

const TOOL = "everything__trigger-elicitation-request";
const elicit = { toolCalls: [{ name: TOOL, arguments: {} }] };

/**
 * A real MCP server's elicitation, answered through the agent loop: the server's reply to the answer
 * (its own words, which only exist once it received the answer) is what the model reads.
 */
describe("an MCP server's elicitation answered through the agent loop", () => {
  let kernel: Kernel;

  beforeAll(async () => {
    kernel = await createTestKernel([[mcp, { config: { mcpServers: { everything: stdio("everything") } }, elicitation: true }]], { logger: memoryLogger() });
  }, 60_000);

  afterAll(async () => {
    await kernel?.close();
  });

  /** The text of the tool result the model was sent in its second request. */
  async function resultRead(waitFor: (() => Promise<PendingAnswer>) | undefined, then?: string): Promise<string> {
    const model = scriptedModel([elicit, "ok"]);
    const agent = createAgent({ model, kernel, ...(waitFor ? { waitFor } : {}) });
    const first = await agent.process("ask me");
    if (then !== undefined) {
      expect(first).toMatchObject({ status: "pending", suspension: { kind: "elicitation", toolName: TOOL } });
      await agent.process(then);
    }
    await agent.close();
    const sent = model.requests[1]?.messages.find((message) => message.role === "tool");
    return sent?.content ?? "";
  }

  it("delivers a decline to the server", async () => {
    expect(await resultRead(async () => ({ action: "decline" }))).toContain("❌ User declined to provide the requested information.");
  });

  it("delivers a host that gives no answer in time to the server as a cancel", async () => {
    const waitFor = async (): Promise<PendingAnswer> => {
      throw new Error("nobody answered within 5 minutes");
    };
    expect(await resultRead(waitFor)).toContain("⚠️ User cancelled the elicitation dialog.");
  });

  it("delivers new input instead of an answer to the server as a cancel", async () => {
    expect(await resultRead(undefined, "never mind")).toContain("⚠️ User cancelled the elicitation dialog.");
  });
});
