import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { useScriptedServer } from "@weft/sdk/testing";
// The example app, run as a user would run it, against a scripted OpenAI-compatible endpoint.
import { bookWithApproval, streamWithWeftTools, weftAgentOnAiSdk } from "../../../examples/ai-sdk-app/app.mjs";
import { chatText, chatToolCall, frame, sseReply } from "./test-fixtures/wires.js";

const server = useScriptedServer(beforeEach, afterEach);


describe("examples/ai-sdk-app", () => {
  it("streams an answer with streamText over the weft toolkit, its skills catalog as the system prompt", async () => {
    server.reply(sseReply(frame(chatToolCall({ id: "c1", name: "weather", arguments: { city: "Oslo" } }))), sseReply(frame(chatText("Pack an umbrella."))));
    const written: string[] = [];
    const text = await streamWithWeftTools({ baseURL: `${server.url}/v1`, model: "m", write: (delta: string) => void written.push(delta) });
    expect(text).toBe("Pack an umbrella.");
    expect(written.join("")).toBe(text);
    const [first, second] = server.requests.map((request) => request.json());
    expect(first.messages[0].role).toBe("system");
    expect(first.messages[0].content).toContain("packing");
    expect(second.messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "Oslo: 12 degrees C, light rain" });
  });

  it("asks the user through the AI SDK's approval flow before the weft tool books, then resumes it", async () => {
    server.reply(sseReply(frame(chatToolCall({ id: "c1", name: "book_hotel", arguments: { city: "Oslo" } }))), sseReply(frame(chatText("Booked."))));
    const asked: string[] = [];
    const text = await bookWithApproval({ baseURL: `${server.url}/v1`, model: "m", approve: async (reason: string) => {
        asked.push(reason);
        return true;
      },
    });
    expect(text).toBe("Booked.");
    expect(asked).toEqual(["Book a room in Oslo?"]);
    expect(server.requests[1]?.json().messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "booked a room in Oslo" });
  });

  it("runs weft's agent loop on the AI SDK provider", async () => {
    server.reply(sseReply(frame(chatToolCall({ id: "c1", name: "weather", arguments: { city: "Oslo", unit: "f" } }))), sseReply(frame(chatText("12 F and rain."))));
    expect(await weftAgentOnAiSdk({ baseURL: `${server.url}/v1`, model: "m" })).toBe("12 F and rain.");
    expect(server.requests[1]?.json().messages.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "Oslo: 12 degrees F, light rain" });
  });
});
