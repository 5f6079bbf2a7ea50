// Set by the build (scripts/bundle-dist.mjs defines __WEFT_INLINED_VERSION_<NAME>__ for each package it
// copies in) and by vitest.config.ts for runs from source, both from typebox's own package.json.
declare const __WEFT_INLINED_VERSION_TYPEBOX__: string;

/**
 * The version of typebox the sdk's entries hold, known without loading it: whatever keeps typebox's
 * answers between runs (core's cache of passed option checks) is tied to it, so a later typebox checks again.
 */
export const TYPEBOX_VERSION: string = __WEFT_INLINED_VERSION_TYPEBOX__;
