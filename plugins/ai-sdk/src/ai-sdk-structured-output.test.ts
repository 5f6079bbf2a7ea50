import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { Type } from "typebox";
import { useScriptedServer } from "@weft/sdk/testing";
import { createAiSdkModel } from "./ai-sdk-model.js";
import { chatText, frame, sseReply } from "./test-fixtures/wires.js";

const server = useScriptedServer(beforeEach, afterEach);

const Weather = Type.Object({ city: Type.String(), celsius: Type.Number() });

describe("structured output through an AI SDK model", () => {
  it("maps output to the AI SDK's responseFormat, which the provider sends as json_schema; the reply is validated and repaired", async () => {
    server.reply(sseReply(frame(chatText('{"city": "Oslo"}'))), sseReply(frame(chatText('{"city": "Oslo", "celsius": 12}'))));
    const factory = createOpenAICompatible({ name: "compat", baseURL: `${server.url}/v1`, includeUsage: true, supportsStructuredOutputs: true });
    const model = createAiSdkModel({ provider: "compat", factory, model: "gpt-test" });
    const reply = await model.chat({ messages: [{ role: "user", content: "Weather in Oslo?" }], topP: 0.9, output: { schema: Weather, name: "weather" } });
    expect(reply.output).toEqual({ city: "Oslo", celsius: 12 });
    const body = server.requests[0]?.json();
    expect(body.response_format).toEqual({
      type: "json_schema",
      json_schema: { schema: { type: "object", properties: { city: { type: "string" }, celsius: { type: "number" } }, required: ["city", "celsius"] }, name: "weather", strict: expect.anything() },
    });
    expect(body.top_p).toBe(0.9);
    expect(server.requests[1]?.json().messages.at(-1)).toEqual({
      role: "user",
      content: "Your reply does not match the required JSON schema:\n- (output): must have required properties celsius\nReply again with only the corrected JSON object, nothing else.",
    });
  });
});
