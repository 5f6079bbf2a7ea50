import { describe, expect, it } from "vitest";
import type { ChatRequest } from "@weft/sdk";
import { anthropicFallbackCapabilities } from "./anthropic-capabilities.js";
import { anthropicRequest } from "./anthropic-request.js";

const PNG = "iVBORw0KGgo=";
const PDF = "JVBERi0xLjQK";

const request: ChatRequest = {
  messages: [
    {
      role: "user",
      content: "What is in these?",
      parts: [
        { type: "text", text: "What is in these?" },
        { type: "image", mediaType: "image/png", data: PNG },
        { type: "image", mediaType: "image/jpeg", url: "https://example.com/cat.jpg" },
        { type: "document", mediaType: "application/pdf", data: PDF, name: "report.pdf" },
      ],
    },
    { role: "assistant", content: "", toolCalls: [{ id: "toolu_1", name: "screenshot", arguments: {} }] },
    {
      role: "tool",
      toolCallId: "toolu_1",
      toolName: "screenshot",
      content: "The screen:",
      parts: [
        { type: "text", text: "The screen:" },
        { type: "image", mediaType: "image/png", data: PNG },
      ],
    },
  ],
};

const call = { model: "claude-sonnet-4-5", effort: "off" as const, maxTokens: 1024, promptCaching: false };

describe("anthropic content parts", () => {
  it("maps images and PDFs, by bytes or URL, to image and document blocks, in tool results too", () => {
    const { body, notices } = anthropicRequest(request, call);
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in these?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
          { type: "image", source: { type: "url", url: "https://example.com/cat.jpg" } },
          { type: "document", source: { type: "base64", media_type: "application/pdf", data: PDF }, title: "report.pdf" },
        ],
      },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "screenshot", input: {} }] },
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: [
              { type: "text", text: "The screen:" },
              { type: "image", source: { type: "base64", media_type: "image/png", data: PNG } },
            ],
          },
        ],
      },
    ]);
    expect(notices).toEqual([]);
  });

  it("puts a placeholder the model can read in place of what it cannot take, and says so", () => {
    const capabilities = { ...anthropicFallbackCapabilities("claude-3-haiku-20240307"), images: false };
    const { body, notices } = anthropicRequest(request, { ...call, model: "claude-3-haiku-20240307", capabilities });
    expect(body.messages[0]?.content).toEqual([
      { type: "text", text: "What is in these?" },
      { type: "text", text: "[image image/png omitted: this model does not accept images]" },
      { type: "text", text: "[image image/jpeg omitted: this model does not accept images]" },
      { type: "text", text: "[document report.pdf (application/pdf) omitted: this model does not accept documents]" },
    ]);
    expect(notices.map((notice) => notice.code)).toEqual(["image-dropped", "image-dropped", "document-dropped", "image-dropped"]);
  });
});
