import { describe, expect, expectTypeOf, it } from "vitest";
import { Type } from "typebox";
import { type } from "arktype";
import * as v from "valibot";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { z } from "zod";
import { defineTool, type FeedbackEvent, type Tool, WeftError } from "@weft/sdk";
import { createToolkit } from "./toolkit/toolkit.js";

// Each tool echoes the arguments it was handed, so a test sees what the library's validator produced.
const echo = (args: unknown) => ({ output: JSON.stringify(args) });

const zodTool = defineTool({
  name: "zod_weather",
  description: "Weather for a city",
  input: z.object({
    city: z.string().min(2),
    days: z.number().int().default(3),
    unit: z.enum(["c", "f"]).transform((unit) => (unit === "c" ? "celsius" : "fahrenheit")),
  }),
  execute: echo,
});

const valibotTool = defineTool({
  name: "valibot_weather",
  description: "Weather for a city",
  input: toStandardJsonSchema(
    v.object({
      city: v.pipe(v.string(), v.minLength(2)),
      days: v.optional(v.number(), 3),
    }),
  ),
  execute: echo,
});

const arktypeTool = defineTool({
  name: "arktype_weather",
  description: "Weather for a city",
  input: type({ city: "string >= 2", days: "number = 3" }).narrow((args, ctx) => args.days <= 14 || ctx.mustBe("at most 14 days")),
  execute: echo,
});

async function toolkitWith(...tools: Tool[]) {
  const events: FeedbackEvent[] = [];
  const toolkit = await createToolkit({ builtins: false, extraTools: tools, feedback: (event) => void events.push(event) });
  return { toolkit, events };
}

describe("Standard Schema tool inputs", () => {
  it("shows the model each library's own JSON Schema export, without $schema", () => {
    expect(zodTool.inputSchema).toEqual({
      type: "object",
      properties: {
        city: { type: "string", minLength: 2 },
        days: { type: "integer", default: 3, minimum: -9007199254740991, maximum: 9007199254740991 },
        unit: { type: "string", enum: ["c", "f"] },
      },
      required: ["city", "unit"],
    });
    expect(valibotTool.inputSchema).toEqual({
      type: "object",
      properties: { city: { type: "string", minLength: 2 }, days: { type: "number", default: 3 } },
      required: ["city"],
    });
    expect(arktypeTool.inputSchema).toMatchObject({ type: "object", properties: { city: { type: "string", minLength: 2 } }, required: ["city"] });
    expect(arktypeTool.inputSchema).not.toHaveProperty("$schema");
  });

  it("runs each library's validator on the execute path and hands execute its output (defaults, transforms)", async () => {
    const { toolkit, events } = await toolkitWith(zodTool, valibotTool, arktypeTool);
    try {
      expect(await toolkit.execute({ name: "zod_weather", arguments: { city: "Oslo", unit: "c" } })).toEqual({
        output: '{"city":"Oslo","days":3,"unit":"celsius"}',
      });
      expect(await toolkit.execute({ name: "valibot_weather", arguments: { city: "Oslo" } })).toEqual({ output: '{"city":"Oslo","days":3}' });
      expect(await toolkit.execute({ name: "arktype_weather", arguments: { city: "Oslo" } })).toEqual({ output: '{"city":"Oslo","days":3}' });
      // The feedback reports the arguments the tool ran with, after the library's output replaced them.
      expect(events.find((event) => event.type === "tool.called")).toMatchObject({ name: "zod_weather", arguments: { days: 3, unit: "celsius" } });
    } finally {
      await toolkit.close();
    }
  });

  it("turns each library's issues, refinements included, into the result the model reads", async () => {
    const { toolkit } = await toolkitWith(zodTool, valibotTool, arktypeTool);
    try {
      expect(await toolkit.execute({ name: "zod_weather", arguments: { city: 1, unit: "k" } })).toEqual({
        output: 'invalid arguments for zod_weather:\n- /city: Invalid input: expected string, received number\n- /unit: Invalid option: expected one of "c"|"f"',
        isError: true,
      });
      expect(await toolkit.execute({ name: "valibot_weather", arguments: { city: "O" } })).toEqual({
        output: "invalid arguments for valibot_weather:\n- /city: Invalid length: Expected >=2 but received 1",
        isError: true,
      });
      expect(await toolkit.execute({ name: "arktype_weather", arguments: { city: "Oslo", days: 30 } })).toEqual({
        output: "invalid arguments for arktype_weather:\n- (arguments): must be at most 14 days (was {\"city\":\"Oslo\",\"days\":30})",
        isError: true,
      });
    } finally {
      await toolkit.close();
    }
  });

  it("validates a gate's rewritten arguments with the library too", async () => {
    const { toolkit } = await toolkitWith(zodTool);
    try {
      toolkit.kernel.tools.setInterceptor(() => ({ action: "rewrite", arguments: { city: "Bergen", unit: "f" } }));
      expect(await toolkit.execute({ name: "zod_weather", arguments: { city: "Oslo", unit: "c" } })).toEqual({
        output: '{"city":"Bergen","days":3,"unit":"fahrenheit"}',
      });
      toolkit.kernel.tools.setInterceptor(() => ({ action: "rewrite", arguments: { city: "B", unit: "f" } }));
      expect((await toolkit.execute({ name: "zod_weather", arguments: { city: "Oslo", unit: "c" } })).output).toBe(
        "invalid arguments for zod_weather:\n- /city: Too small: expected string to have >=2 characters",
      );
    } finally {
      await toolkit.close();
    }
  });

  it("infers execute's arguments from each kind of schema", () => {
    defineTool({
      name: "typed",
      description: "",
      input: z.object({ n: z.number().default(1), s: z.string().transform((text) => text.length) }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number; s: number }>();
        return { output: "" };
      },
    });
    defineTool({
      name: "typed_tb",
      description: "",
      input: Type.Object({ n: Type.Number() }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number }>();
        return { output: "" };
      },
    });
    defineTool({
      name: "typed_ark",
      description: "",
      input: type({ n: "number" }),
      execute: (args) => {
        expectTypeOf(args).toEqualTypeOf<{ n: number }>();
        return { output: "" };
      },
    });
  });

  it("still takes plain JSON Schema, validated by the kernel", async () => {
    const plain = defineTool({
      name: "plain",
      description: "",
      input: { type: "object", properties: { n: { type: "number" } }, required: ["n"] },
      execute: echo,
    });
    expect(plain.validateInput).toBeUndefined();
    const { toolkit } = await toolkitWith(plain);
    try {
      expect(await toolkit.execute({ name: "plain", arguments: { n: "1" } })).toEqual({ output: "invalid arguments for plain:\n- /n: must be number", isError: true });
    } finally {
      await toolkit.close();
    }
  });

  it("refuses at defineTool, naming the tool, a value that cannot become an object schema", () => {
    const refused = (input: unknown) => {
      try {
        defineTool({ name: "bad", description: "", input: input as never, execute: echo });
      } catch (error) {
        expect(error).toBeInstanceOf(WeftError);
        expect((error as WeftError).code).toBe("SCHEMA_INVALID");
        return (error as Error).message;
      }
      throw new Error("defineTool accepted it");
    };
    expect(refused(v.object({ city: v.string() }))).toBe(
      "tool bad: the valibot schema cannot export JSON Schema (no ~standard.jsonSchema); wrap it with toStandardJsonSchema from @valibot/to-json-schema",
    );
    expect(refused(z.object({ when: z.date() }))).toBe("tool bad: zod cannot express it as JSON Schema: Date cannot be represented in JSON Schema");
    expect(refused(z.string())).toBe('tool bad: a tool\'s input must be an object schema (JSON Schema with type "object"), got type "string"');
    expect(refused({ def: {}, type: "object-ish" })).toBe(
      'tool bad: a tool\'s input must be an object schema (JSON Schema with type "object"), got type "object-ish"',
    );
    expect(refused({ properties: {} })).toBe('tool bad: a tool\'s input must be an object schema (JSON Schema with type "object"), got an object with keys properties');
    expect(refused(undefined)).toBe("tool bad: expected a schema object, got undefined");
  });
});
