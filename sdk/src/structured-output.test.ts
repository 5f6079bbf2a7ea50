import { describe, expect, it } from "vitest";
import { Type } from "typebox";
import { OutputValidationError } from "./errors.js";
import type { StreamEvent } from "./chat-model.js";
import { adaptOutputSchema, ANTHROPIC_OUTPUT_DIALECT, dropNullOptionals, OPENAI_STRICT_DIALECT } from "./output-schema.js";
import { checkReply, outputInstruction, repairPrompt, resolveOutput, withStructuredOutput } from "./structured-output.js";
import { scriptedModel } from "./testing/scripted-model.js";

const Weather = Type.Object({
  city: Type.String({ minLength: 2, description: "City name" }),
  celsius: Type.Number({ minimum: -90, maximum: 60 }),
  note: Type.Optional(Type.String()),
});

const ask = { messages: [{ role: "user" as const, content: "Weather in Paris?" }], output: { schema: Weather } };

async function events(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const seen: StreamEvent[] = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

describe("structured output over a ChatModel", () => {
  it("hands back the validated value and streams partial objects as the JSON arrives", async () => {
    const model = scriptedModel(['{"city": "Paris", "celsius": 21}']);
    const seen = await events(model.stream(ask));
    const partials = seen.flatMap((event) => (event.type === "output" ? [event.partial] : []));
    expect(partials).toEqual([{}, { city: "Paris" }, { city: "Paris", celsius: 21 }]);
    const done = seen.at(-1);
    expect(done?.type === "done" && done.message.output).toEqual({ city: "Paris", celsius: 21 });
  });

  it("runs one repair round naming the failing paths, then succeeds; stats cover both attempts", async () => {
    const model = scriptedModel(['{"city": "P", "celsius": "warm"}', '```json\n{"city": "Paris", "celsius": 21}\n```']);
    const seen = await events(model.stream(ask));
    expect(seen.filter((event) => event.type === "notice").map((event) => event.type === "notice" && event.code)).toEqual(["output-repair"]);
    const repair = model.requests[1]?.messages;
    expect(repair?.at(-2)).toMatchObject({ role: "assistant", content: '{"city": "P", "celsius": "warm"}' });
    expect(repair?.at(-1)).toEqual({
      role: "user",
      content:
        "Your reply does not match the required JSON schema:\n- /city: must not have fewer than 2 characters\n- /celsius: must be number\nReply again with only the corrected JSON object, nothing else.",
    });
    const message = await model.chat(ask).catch((error: unknown) => error);
    expect(message).toBeInstanceOf(Error); // the script is spent: the chat above used both turns
    const done = seen.at(-1);
    expect(done?.type === "done" && done.message.output).toEqual({ city: "Paris", celsius: 21 });
    expect(done?.type === "done" && done.message.stats?.outputTokens).toBe(10);
  });

  it("fails with OutputValidationError carrying the raw text when the repair fails too", async () => {
    const model = scriptedModel(["It is sunny in Paris.", '{"city": "Paris"}']);
    const error = await model.chat(ask).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect((error as OutputValidationError).code).toBe("OUTPUT_INVALID");
    expect((error as OutputValidationError).text).toBe('{"city": "Paris"}');
    expect((error as OutputValidationError).message).toBe(
      "scripted/test-model: the reply does not match the output schema after a repair round: (output): must have required properties celsius",
    );
    expect(model.requests[1]?.messages.at(-1)?.content).toContain("- (output): the reply is not valid JSON (");
  });

  it("does not check a reply with tool calls: a step of a tool-using turn", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: "weather", arguments: { city: "Paris" } }] }]);
    const reply = await model.chat(ask);
    expect(reply.toolCalls?.[0]?.name).toBe("weather");
    expect(reply.output).toBeUndefined();
  });

  it("refuses a schema that is not an object schema, or a bad name, naming the option", () => {
    expect(() => resolveOutput({ schema: Type.String() })).toThrow('output.schema: a tool\'s input must be an object schema (JSON Schema with type "object"), got type "string"');
    expect(() => resolveOutput({ schema: Weather, name: "my answer" })).toThrow('output.name "my answer" is not a valid name: use 1-64 letters, digits, _ or -');
  });

  it("pins the texts the model reads", () => {
    const output = resolveOutput({ schema: { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, description: "the answer" });
    expect(outputInstruction(output)).toBe(
      'Give your final answer as one JSON object (the answer) that follows this JSON Schema, with no other text:\n{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}',
    );
    expect(repairPrompt(["/a: must be string"])).toBe("Your reply does not match the required JSON schema:\n- /a: must be string\nReply again with only the corrected JSON object, nothing else.");
  });
});

describe("a request without an output schema", () => {
  it("streams the provider's events as they are: no layer between them and the caller", async () => {
    const events: StreamEvent[] = [{ type: "text", delta: "hi" }, { type: "done", message: { role: "assistant", content: "hi" } }];
    async function* reply(): AsyncGenerator<StreamEvent> {
      yield* events;
    }
    const provider = reply();
    const stream = withStructuredOutput({ messages: [] }, "scripted/model", () => provider);
    expect(stream).toBe(provider);
    const seen: StreamEvent[] = [];
    for await (const event of stream) seen.push(event);
    expect(seen).toEqual(events);
  });
});

describe("schema adaptation", () => {
  const schema = {
    type: "object",
    title: "Weather",
    properties: {
      city: { type: "string", minLength: 2, description: "City name" },
      celsius: { type: "number", minimum: -90 },
      when: { type: "string", format: "date" },
      site: { type: "string", format: "uri" },
      tags: { type: "array", items: { type: "string" }, minItems: 2, uniqueItems: true },
      unit: { enum: ["c", "f"] },
      place: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"], additionalProperties: true },
    },
    required: ["city", "celsius"],
  };

  it("OpenAI strict mode: every property required, optional ones nullable, additionalProperties false, unsupported keywords described", () => {
    const { schema: strict, moved } = adaptOutputSchema(schema, OPENAI_STRICT_DIALECT);
    expect(strict).toEqual({
      type: "object",
      properties: {
        city: { type: "string", description: 'City name (minLength: 2)' },
        celsius: { type: "number", minimum: -90 },
        when: { type: ["string", "null"], format: "date" },
        site: { type: ["string", "null"], description: '(format: "uri")' },
        tags: { type: ["array", "null"], items: { type: "string" }, minItems: 2, description: "(uniqueItems: true)" },
        unit: { anyOf: [{ enum: ["c", "f"] }, { type: "null" }] },
        place: { type: ["object", "null"], properties: { lat: { type: "number" } }, required: ["lat"], additionalProperties: false },
      },
      required: ["city", "celsius", "when", "site", "tags", "unit", "place"],
      additionalProperties: false,
    });
    expect(moved).toEqual(["/properties/city minLength", "/properties/site format", "/properties/tags uniqueItems"]);
  });

  it("Anthropic: optional stays optional; numeric and string limits and minItems above 1 are described", () => {
    const { schema: adapted } = adaptOutputSchema(schema, ANTHROPIC_OUTPUT_DIALECT);
    expect(adapted).toMatchObject({
      properties: {
        city: { type: "string", description: "City name (minLength: 2)" },
        celsius: { type: "number", description: "(minimum: -90)" },
        site: { type: "string", format: "uri" },
        tags: { type: "array", items: { type: "string" }, description: "(minItems: 2, uniqueItems: true)" },
        place: { additionalProperties: false },
      },
      required: ["city", "celsius"],
      additionalProperties: false,
    });
  });

  it("takes out the nulls strict mode put in optional properties before validating", async () => {
    expect(dropNullOptionals({ city: "Paris", celsius: 3, when: null, unit: null }, schema)).toEqual({ city: "Paris", celsius: 3 });
    const output = resolveOutput({ schema: Weather });
    expect(await checkReply('{"city": "Paris", "celsius": 3, "note": null}', output)).toEqual({ value: { city: "Paris", celsius: 3 } });
  });
});
