import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { imagePart, documentPart, type Message } from "@weft/sdk";
import { fileSessionStore } from "./file-session-store.js";
import { estimateMessageTokens } from "./token-estimate.js";

const messages: Message[] = [
  { role: "user", content: "Look", parts: [{ type: "text", text: "Look" }, imagePart(new Uint8Array([137, 80, 78, 71]), "image/png"), documentPart(new Uint8Array([37, 80, 68, 70]), "application/pdf", "a.pdf")] },
  { role: "assistant", content: "", toolCalls: [{ id: "t1", name: "shot", arguments: {} }] },
  { role: "tool", toolCallId: "t1", toolName: "shot", content: "Shot:", parts: [{ type: "text", text: "Shot:" }, { type: "image", mediaType: "image/png", url: "https://example.com/a.png" }] },
];

describe("content parts in the agent's transcript", () => {
  it("survive the file session store, bytes as base64", async () => {
    const dir = await mkdtemp(join(tmpdir(), "weft-parts-"));
    try {
      const store = fileSessionStore(dir);
      await store.save("s", { version: 1, sessionId: "s", messages });
      const loaded = await store.get("s");
      expect(loaded?.messages).toEqual(messages);
      expect(loaded?.messages[0]).toMatchObject({ parts: [{}, { data: "iVBORw==" }, { data: "JVBERg==", name: "a.pdf" }] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("count toward the compaction estimate, an image or document like ~1600 tokens", () => {
    const [user, , tool] = messages;
    if (!user || !tool) throw new Error("fixture");
    expect(estimateMessageTokens(user)).toBe(estimateMessageTokens({ role: "user", content: "Look" }) + 3200);
    expect(estimateMessageTokens(tool)).toBe(estimateMessageTokens({ role: "tool", toolCallId: "t1", toolName: "shot", content: "Shot:" }) + 1600);
  });
});
