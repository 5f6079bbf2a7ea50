// The part of the typebox runtime weft's own packages build option and tool schemas with, and check
// values against (`@weft/sdk/typebox-lite`). `@weft/sdk/typebox` exports typebox's whole `Type`
// namespace, `Value` and `Compile`: 421 KB bundled, ~30 ms to load, on every start of every process.
// This entry holds the builders first-party code calls and `Value.Check`/`Value.Errors`: ~130 KB.
// The schemas are the same objects `@weft/sdk/typebox` builds. Plugin authors keep the full entry.
import * as typebox from "typebox";
import type { TObjectOptions, TRecord, TSchema, TString } from "typebox";
import { RecordFromPattern, StringKey } from "typebox/type";
import { Check, Errors } from "typebox/value";

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
export const Value = { Check, Errors };
