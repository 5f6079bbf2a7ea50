import { afterEach, describe, expect, it } from "vitest";
import { Type } from "typebox";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { z } from "zod";
import { OutputValidationError, type FeedbackEvent } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { testKernels } from "../test-fixtures/test-kernels.js";
import { createAgent } from "./agent.js";
import { add } from "../test-fixtures/add-tool.js";

const newKernel = testKernels(afterEach);
const schemas = {
  typebox: Type.Object({ sum: Type.Number(), explanation: Type.String() }),
  zod: z.object({ sum: z.number(), explanation: z.string() }),
  valibot: toStandardJsonSchema(v.object({ sum: v.number(), explanation: v.string() })),
};

describe("a turn with a typed answer", () => {
  it.each(Object.entries(schemas))("uses its tools first and ends with a validated value (%s)", async (_library, schema) => {
    const kernel = newKernel();
    const events: FeedbackEvent[] = [];
    kernel.hooks.feedback.tap((event) => void events.push(event));
    const model = scriptedModel([{ toolCalls: [{ name: "add", arguments: { a: 2, b: 3 } }] }, '{"sum": 5, "explanation": "2 + 3"}']);
    const agent = createAgent({ model, kernel });
    await agent.startSession({ tools: [add] });
    const response = await agent.process("What is 2 + 3?", { output: { schema } });
    expect(response.status).toBe("done");
    expect(response.output).toEqual({ sum: 5, explanation: "2 + 3" });
    // Both calls carried the schema and the tools: the tool round first, the typed answer at the end.
    expect(model.requests.map((request) => [request.tools?.map((tool) => tool.name), request.output?.schema === schema])).toEqual([
      [["add"], true],
      [["add"], true],
    ]);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: "tool", content: "5" });
    expect(events.filter((event) => event.type === "output.partial").at(-1)).toEqual({ type: "output.partial", partial: { sum: 5, explanation: "2 + 3" } });
  });

  it("repairs an invalid answer once, keeping the transcript to the valid one, and sums both attempts' tokens", async () => {
    const kernel = newKernel();
    const model = scriptedModel(['{"sum": "five"}', '{"sum": 5, "explanation": "2 + 3"}']);
    const agent = createAgent({ model, kernel });
    const response = await agent.process("What is 2 + 3?", { output: { schema: schemas.zod } });
    expect(response.output).toEqual({ sum: 5, explanation: "2 + 3" });
    expect(model.requests[1]?.messages.at(-1)?.content).toBe(
      "Your reply does not match the required JSON schema:\n- /sum: Invalid input: expected number, received string\n- /explanation: Invalid input: expected string, received undefined\nReply again with only the corrected JSON object, nothing else.",
    );
    expect(agent.messages().filter((message) => message.role === "assistant").map((message) => message.content)).toEqual(['{"sum": 5, "explanation": "2 + 3"}']);
    expect(response.metadata.usage).toMatchObject({ promptTokens: 20, outputTokens: 10 });
  });

  it("ends with OutputValidationError when the repair fails too; a turn without output is untouched", async () => {
    const kernel = newKernel();
    const model = scriptedModel(["five", "still five", "plain text is fine here"]);
    const agent = createAgent({ model, kernel });
    const failed = await agent.process("What is 2 + 3?", { output: { schema: schemas.typebox } }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(OutputValidationError);
    expect((failed as OutputValidationError).text).toBe("still five");
    const plain = await agent.process("And in words?");
    expect(plain.content).toBe("plain text is fine here");
    expect(plain.output).toBeUndefined();
  });
});
