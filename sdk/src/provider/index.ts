/**
 * `@weft/sdk/provider`: what a provider plugin is built from (HTTP with retries and typed errors,
 * stream parsers, the reply builder, settings, the shared ChatModel, capability lookups). Apps and
 * tool plugins need none of it; the root entry keeps the contract they use.
 */
// Built on the root entry (a provider plugin loads both): importing it keeps the modules the two share
// inside dist/index.js, not in a chunk every start would load after it (scripts/bundle-dist.mjs).
import "../index.js";
export * from "../sse-parser.js";
export * from "../ndjson-parser.js";
export * from "../retry-policy.js";
export * from "../provider-errors.js";
export * from "../provider-fetch.js";
export * from "../json-body.js";
export type { ResponseHeaders } from "../response-headers.js";
export * from "../provider-settings.js";
export * from "../provider-model.js";
export * from "../reply-builder.js";
export * from "../stream-collector.js";
export * from "../flat-events.js";
export * from "../model-capabilities.js";
export * from "../output-schema.js";
export * from "../structured-output.js";
