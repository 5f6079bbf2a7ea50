import { describe, expect, it } from "vitest";
import type { ChatRequest } from "@weft/sdk";
import { chatCompletionsRequest, type ChatCompletionsCall } from "./chat-completions-request.js";

const PNG = "iVBORw0KGgo=";

/** A transcript written with Anthropic (its signed thinking included), continued on OpenRouter. */
const request: ChatRequest = {
  messages: [
    {
      role: "user",
      content: "Compare",
      parts: [
        { type: "text", text: "Compare" },
        { type: "image", mediaType: "image/png", data: PNG },
        { type: "document", mediaType: "application/pdf", url: "https://example.com/r.pdf", name: "r.pdf" },
      ],
    },
    {
      role: "assistant",
      content: "",
      reasoning: [{ provider: "anthropic", text: "look at both", signature: "sig" }],
      toolCalls: [
        { id: "toolu_1", name: "screenshot", arguments: {} },
        { id: "toolu_2", name: "clock", arguments: {} },
      ],
    },
    { role: "tool", toolCallId: "toolu_1", toolName: "screenshot", content: "Screen:", parts: [{ type: "text", text: "Screen:" }, { type: "image", mediaType: "image/png", data: PNG }] },
    { role: "tool", toolCallId: "toolu_2", toolName: "clock", content: "12:00" },
  ],
};

const call: ChatCompletionsCall = { provider: "openrouter", model: "openai/gpt-4o", effort: "off", effortStyle: "openrouter", maxTokensField: "max_tokens" };

describe("chat completions content parts", () => {
  it("maps images to image_url and PDFs to file parts; a tool's image follows the tool results as a user message; Anthropic's thinking is not replayed", () => {
    const { body, notices } = chatCompletionsRequest(request, { ...call, capabilities: { reasoning: false, images: true, documents: true, structuredOutput: true } });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Compare" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: "file", file: { filename: "r.pdf", file_data: "https://example.com/r.pdf" } },
        ],
      },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "toolu_1", type: "function", function: { name: "screenshot", arguments: "{}" } },
          { id: "toolu_2", type: "function", function: { name: "clock", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "toolu_1", content: "Screen:\n[image attached below]" },
      { role: "tool", tool_call_id: "toolu_2", content: "12:00" },
      {
        role: "user",
        content: [
          { type: "text", text: "What screenshot (toolu_1) returned:" },
          { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ]);
    expect(notices).toEqual([]);
  });

  it("sends an openai-compatible endpoint that states no image support a placeholder, and says so", () => {
    const { body, notices } = chatCompletionsRequest(
      { messages: request.messages.slice(0, 1) },
      { ...call, provider: "openai-compatible", effortStyle: "reasoning_effort", capabilities: { reasoning: false, images: false, documents: false, structuredOutput: false } },
    );
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "Compare" },
          { type: "text", text: "[image image/png omitted: this model does not accept images]" },
          { type: "text", text: "[document r.pdf (application/pdf) omitted: this model does not accept documents]" },
        ],
      },
    ]);
    expect(notices.map((notice) => notice.code)).toEqual(["image-dropped", "document-dropped"]);
  });
});
