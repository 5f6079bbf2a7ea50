// The part of the typebox runtime weft's own packages build option and tool schemas with, and check
// values against (`@weft/sdk/typebox-lite`). `@weft/sdk/typebox` exports typebox's whole `Type`
// namespace, `Value` and `Compile`: 421 KB bundled, ~30 ms to load. This entry holds the builders
// first-party code calls (typebox-builders.ts, also the root entry's `Type`) and `Value.Check`/`Value.Errors`:
// ~130 KB, loaded when a value is first checked. The schemas are the same objects `@weft/sdk/typebox` builds.
import { Check, Errors } from "typebox/value";

export { Type } from "./typebox-builders.js";
export const Value = { Check, Errors };
