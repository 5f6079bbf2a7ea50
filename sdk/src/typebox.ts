// The typebox runtime every weft package builds schemas and validators with (`@weft/sdk/typebox`).
// typebox ships ~680 module files; the build bundles this file into one module (sdk/scripts/bundle-typebox.mjs),
// so a process that loads weft reads one file instead of hundreds. Schemas are plain JSON Schema objects,
// so they mix freely with those of an application's own `typebox` import. Types stay imported from
// `typebox` itself (`import type { TSchema } from "typebox"`). weft's own packages import the light entry
// (typebox-lite.ts) and load this one when they compile a validator.
export { Type } from "typebox";
export { Value } from "typebox/value";
export { Compile } from "typebox/compile";
