// The typebox builders weft's own packages make option and tool schemas with (`Type` of the root entry
// and of `@weft/sdk/typebox-lite`), without a checker: ~10 KB of typebox instead of the 130 KB that
// `Value.Check` brings. A start that lists tools builds schemas but checks no value against one, so it
// never loads the checker (schema-errors.ts and core's option checks import it when they first run).
// The schemas are the same objects `@weft/sdk/typebox` builds. Plugin authors keep the full entry.
import * as typebox from "typebox";
import type { TObjectOptions, TRecord, TSchema, TString } from "typebox";
import { RecordFromPattern, StringKey } from "typebox/type";

/**
 * `Type.Record(Type.String(), value, options)`, the same schema (`patternProperties: { "^.*$": value }`),
 * without typebox's `Record`, which computes keys of every kind and is 122 KB on its own.
 */
function Record<Value extends TSchema>(_key: TString, value: Value, options: TObjectOptions = {}): TRecord<typeof StringKey, Value> {
  return Object.assign(RecordFromPattern(StringKey, value), options);
}

export const Type = {
  Array: typebox.Array,
  Boolean: typebox.Boolean,
  Enum: typebox.Enum,
  Integer: typebox.Integer,
  Literal: typebox.Literal,
  Number: typebox.Number,
  Object: typebox.Object,
  Optional: typebox.Optional,
  Record,
  String: typebox.String,
  Union: typebox.Union,
  Unknown: typebox.Unknown,
  Unsafe: typebox.Unsafe,
};
