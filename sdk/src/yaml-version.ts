// Set by the build (scripts/bundle-dist.mjs defines __WEFT_INLINED_VERSION_<NAME>__ for each package it
// copies in) and by vitest.config.ts for runs from source, both from yaml's own package.json.
declare const __WEFT_INLINED_VERSION_YAML__: string;

/**
 * The version of yaml that `@weft/sdk/yaml` holds, known without loading it: whatever keeps yaml's
 * output between runs (core's config parse cache) is tied to it, so a later yaml never reuses it.
 */
export const YAML_VERSION: string = __WEFT_INLINED_VERSION_YAML__;
