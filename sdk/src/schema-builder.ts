/**
 * A small builder for tool input schemas, for authors who prefer it to typebox:
 *
 *   objectSchema().string("path", "File to read", true).integer("limit", "Lines to read").build()
 *
 * `required` lists properties in declaration order and is omitted when empty; `build()` returns a fresh
 * JSON Schema object every time, so callers may mutate what they get.
 */
export type JsonSchema = Record<string, unknown>;
type ScalarType = "string" | "integer" | "number" | "boolean";

export class ObjectSchemaBuilder {
  readonly #properties: [name: string, schema: JsonSchema][] = [];
  readonly #required: string[] = [];

  string(name: string, description: string, required = false): this {
    return this.#add(name, { type: "string", description }, required);
  }
  integer(name: string, description: string, required = false): this {
    return this.#add(name, { type: "integer", description }, required);
  }
  number(name: string, description: string, required = false): this {
    return this.#add(name, { type: "number", description }, required);
  }
  boolean(name: string, description: string, required = false): this {
    return this.#add(name, { type: "boolean", description }, required);
  }
  /** A nested object whose properties `shape` declares on a fresh builder. */
  object(name: string, description: string, shape: (builder: ObjectSchemaBuilder) => ObjectSchemaBuilder, required = false): this {
    return this.#add(name, { ...shape(new ObjectSchemaBuilder()).build(), description }, required);
  }
  /** An array of scalars. */
  arrayOf(name: string, itemType: ScalarType, description: string, required = false): this {
    return this.#add(name, { type: "array", items: { type: itemType }, description }, required);
  }
  /** An array of objects whose properties `shape` declares. */
  arrayOfObjects(name: string, description: string, shape: (builder: ObjectSchemaBuilder) => ObjectSchemaBuilder, required = false): this {
    return this.#add(name, { type: "array", items: shape(new ObjectSchemaBuilder()).build(), description }, required);
  }

  build(): JsonSchema {
    const properties: JsonSchema = {};
    for (const [name, schema] of this.#properties) properties[name] = structuredClone(schema);
    const schema: JsonSchema = { type: "object", properties };
    if (this.#required.length > 0) schema.required = [...this.#required];
    return schema;
  }

  #add(name: string, schema: JsonSchema, required: boolean): this {
    const existing = this.#properties.findIndex(([taken]) => taken === name);
    if (existing >= 0) this.#properties[existing] = [name, schema];
    else this.#properties.push([name, schema]);
    if (required && !this.#required.includes(name)) this.#required.push(name);
    return this;
  }
}

export function objectSchema(): ObjectSchemaBuilder {
  return new ObjectSchemaBuilder();
}
