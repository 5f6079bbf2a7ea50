import { TaskState } from "@a2a-js/sdk";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import a2aPlugin from "./index.js";
import { startAgentServer, textPart, type AgentServer, type Turn } from "./test-fixtures/agent-server.js";

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** A real @a2a-js/sdk peer that answers with files: a chart (raw PNG), a report by URL (PDF) and an archive. */
async function filesAgent(turn: Turn): Promise<void> {
  if (turn.text === "chart") {
    turn.start();
    turn.artifactParts("result", [
      textPart("Here is the chart and the report."),
      { content: { $case: "raw", value: PNG }, metadata: undefined, filename: "chart.png", mediaType: "image/png" },
      { content: { $case: "url", value: "https://files.example/q3.pdf" }, metadata: undefined, filename: "q3.pdf", mediaType: "application/pdf" },
      { content: { $case: "raw", value: Buffer.from("PK") }, metadata: undefined, filename: "data.zip", mediaType: "application/zip" },
    ]);
    turn.status(TaskState.TASK_STATE_COMPLETED);
    return;
  }
  return turn.reply("no files");
}

describe("A2A file parts reach the model as content parts", () => {
  let server: AgentServer;
  let kernel: Kernel;
  beforeAll(async () => {
    server = await startAgentServer({ name: "Files Agent", streaming: true, skills: [{ id: "ask", name: "Ask", description: "Ask for files" }], run: filesAgent });
    kernel = await createTestKernel([[a2aPlugin, { agents: [{ card: server.cardUrl, timeout: 60_000 }] }]]);
  });
  afterAll(async () => {
    await kernel?.close();
    await server?.close();
  });

  it("an image by bytes and a PDF by URL become parts; a file models cannot read stays a line of text", async () => {
    const result = await kernel.execute({ name: "Files_Agent__ask", arguments: { task: "chart" } });
    expect(result.output).toBe("Here is the chart and the report.\n[file chart.png, image/png]\nhttps://files.example/q3.pdf\n[file data.zip, application/zip]");
    expect(result.parts).toEqual([
      { type: "text", text: result.output },
      { type: "image", mediaType: "image/png", data: PNG.toString("base64") },
      { type: "document", mediaType: "application/pdf", url: "https://files.example/q3.pdf", name: "q3.pdf" },
    ]);
  });

  it("a reply without files has no parts", async () => {
    expect((await kernel.execute({ name: "Files_Agent__ask", arguments: { task: "hello" } })).parts).toBeUndefined();
  });
});
