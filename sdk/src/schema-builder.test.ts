import { describe, expect, it } from "vitest";
import { objectSchema } from "./schema-builder.js";

describe("objectSchema", () => {
  it("builds properties in order with required in declaration order", () => {
    const schema = objectSchema()
      .string("path", "File to read", true)
      .integer("limit", "Lines to read")
      .number("ratio", "A ratio", true)
      .boolean("force", "Overwrite")
      .object("where", "Filter", (o) => o.string("owner", "Owner", true))
      .arrayOf("tags", "string", "Tags")
      .arrayOfObjects("items", "Items", (o) => o.integer("n", "Count", true).string("label", "Label"), true)
      .build();
    expect(schema).toEqual({
      type: "object",
      properties: {
        path: { type: "string", description: "File to read" },
        limit: { type: "integer", description: "Lines to read" },
        ratio: { type: "number", description: "A ratio" },
        force: { type: "boolean", description: "Overwrite" },
        where: { type: "object", properties: { owner: { type: "string", description: "Owner" } }, required: ["owner"], description: "Filter" },
        tags: { type: "array", items: { type: "string" }, description: "Tags" },
        items: {
          type: "array",
          items: { type: "object", properties: { n: { type: "integer", description: "Count" }, label: { type: "string", description: "Label" } }, required: ["n"] },
          description: "Items",
        },
      },
      required: ["path", "ratio", "items"],
    });
    expect(Object.keys(schema.properties as object)).toEqual(["path", "limit", "ratio", "force", "where", "tags", "items"]);
  });

  it("omits required when nothing is required and returns a fresh object each time", () => {
    const builder = objectSchema().string("q", "Query");
    const first = builder.build();
    expect(first).toEqual({ type: "object", properties: { q: { type: "string", description: "Query" } } });
    (first.properties as Record<string, unknown>).q = "changed";
    expect(builder.build()).toEqual({ type: "object", properties: { q: { type: "string", description: "Query" } } });
    expect(objectSchema().build()).toEqual({ type: "object", properties: {} });
  });
});
