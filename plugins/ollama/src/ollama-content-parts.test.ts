import { describe, expect, it } from "vitest";
import type { ChatRequest } from "@weft/sdk";
import { ollamaRequest } from "./ollama-request.js";

const PNG = "iVBORw0KGgo=";
const vision = { reasoning: false, thinkLevels: false, tools: true, images: true, documents: false, structuredOutput: true };

const request: ChatRequest = {
  messages: [
    {
      role: "user",
      content: "What is this?",
      parts: [
        { type: "text", text: "What is this?" },
        { type: "image", mediaType: "image/png", data: PNG },
        { type: "image", mediaType: "image/png", url: "https://example.com/a.png" },
        { type: "document", mediaType: "application/pdf", data: "JVBERi0=" },
      ],
    },
    { role: "assistant", content: "", toolCalls: [{ id: "call_1", name: "shot", arguments: {} }] },
    { role: "tool", toolCallId: "call_1", toolName: "shot", content: "Shot:", parts: [{ type: "text", text: "Shot:" }, { type: "image", mediaType: "image/png", data: PNG }] },
  ],
};

describe("ollama content parts", () => {
  it("sends image bytes in images (user and tool messages), and a placeholder for URLs and documents", () => {
    const { body, notices } = ollamaRequest(request, { model: "llava:7b", effort: "off", capabilities: vision });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: "What is this?\n[image image/png omitted: Ollama takes images as bytes, not URLs]\n[document application/pdf omitted: Ollama takes no documents]",
        images: [PNG],
      },
      { role: "assistant", content: "", tool_calls: [{ id: "call_1", function: { name: "shot", arguments: {} } }] },
      { role: "tool", tool_name: "shot", content: "Shot:", images: [PNG], tool_call_id: "call_1" },
    ]);
    expect(notices.map((notice) => notice.code)).toEqual(["image-dropped", "document-dropped"]);
  });

  it("sends a model without vision no images", () => {
    const { body } = ollamaRequest(request, { model: "llama3.2:3b", effort: "off", capabilities: { ...vision, images: false } });
    expect(JSON.stringify(body)).not.toContain('"images"');
    expect(JSON.stringify(body)).toContain("[image image/png omitted: this model does not accept images]");
  });
});
