import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "@weft/sdk";
import { createTestKernel } from "@weft/testing";
import mcp, { toToolResult } from "./index.js";
import { stdio } from "./test-fixtures/harness.js";

const origin = { server: "s", tool: "t" };

describe("MCP images and documents reach the model as content parts", () => {
  it("an image block and a PDF resource blob become parts after the text; audio and other blobs stay text", () => {
    const png = Buffer.from("png-bytes").toString("base64");
    const pdf = Buffer.from("%PDF-1.4").toString("base64");
    const result = toToolResult(
      {
        content: [
          { type: "text", text: "Here:" },
          { type: "image", data: png, mimeType: "image/png" },
          { type: "resource", resource: { uri: "file:///reports/q3.pdf", mimeType: "application/pdf", blob: pdf } },
          { type: "audio", data: png, mimeType: "audio/wav" },
          { type: "image", data: png, mimeType: "image/svg+xml" },
        ],
      },
      origin,
    );
    expect(result.parts).toEqual([
      { type: "text", text: result.output },
      { type: "image", mediaType: "image/png", data: png },
      { type: "document", mediaType: "application/pdf", data: pdf, name: "q3.pdf" },
    ]);
    expect(result.output).toBe(
      "Here:\n[image: image/png, 9 bytes]\n[embedded resource: file:///reports/q3.pdf (application/pdf, 8 bytes)]\n[audio: audio/wav, 9 bytes]\n[image: image/svg+xml, 9 bytes]",
    );
  });

  it("an error result carries no parts", () => {
    expect(toToolResult({ content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], isError: true }, origin).parts).toBeUndefined();
  });

  describe("from the real everything server", () => {
    let kernel: Kernel;
    beforeAll(async () => {
      kernel = await createTestKernel([[mcp, { config: { mcpServers: { everything: stdio("everything") } } }]]);
    }, 60_000);
    afterAll(async () => {
      await kernel?.close();
    });

    it("get-tiny-image returns its PNG as an image part", async () => {
      const result = await kernel.execute({ name: "everything__get-tiny-image", arguments: {} });
      const image = result.parts?.find((part) => part.type === "image");
      expect(image?.type === "image" && image.mediaType).toBe("image/png");
      expect(image?.type === "image" && Buffer.from(image.data ?? "", "base64").subarray(0, 4).toString("latin1")).toBe("\x89PNG");
      expect(result.parts?.[0]).toEqual({ type: "text", text: "Here's the image you requested:\n[image: image/png, 4033 bytes]\nThe image above is the MCP logo." });
    });
  });
});
