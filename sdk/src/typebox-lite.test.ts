import { describe, expect, it } from "vitest";
import { Type as FullType, Value as FullValue } from "./typebox.js";
import { Type, Value } from "./typebox-lite.js";

describe("the light typebox entry", () => {
  it("builds Type.Record(Type.String(), value) as typebox's Record does: the same JSON Schema, kind and static use", () => {
    for (const options of [undefined, { default: {}, description: "Tool name → false drops that tool" }]) {
      const light = Type.Record(Type.String(), Type.Boolean(), options);
      const full = FullType.Record(FullType.String(), FullType.Boolean(), options);
      expect(JSON.stringify(light)).toBe(JSON.stringify(full));
      expect(light["~kind"]).toBe(full["~kind"]);
    }
    const schema = Type.Object({ tools: Type.Optional(Type.Record(Type.String(), Type.Boolean())) });
    expect(JSON.stringify(schema)).toBe(JSON.stringify(FullType.Object({ tools: FullType.Optional(FullType.Record(FullType.String(), FullType.Boolean())) })));
    expect(schema.required).toBeUndefined();
  });

  it("checks and explains values as the full entry does", () => {
    const schema = Type.Object({ tools: Type.Record(Type.String(), Type.Boolean()), root: Type.String() });
    for (const value of [{ tools: { read: false }, root: "." }, { tools: { read: 3 }, root: "." }, { tools: {} }]) {
      expect(Value.Check(schema, value)).toBe(FullValue.Check(schema, value));
      expect([...Value.Errors(schema, value)]).toEqual([...FullValue.Errors(schema, value)]);
    }
    expect([...Value.Errors(schema, { tools: { read: 3 }, root: "." })].map((error) => `${error.instancePath}: ${error.message}`)).toEqual(["/tools/read: must be boolean"]);
  });
});
