export { GenAiSpans, type GenAiSpanOptions, type OtelApi } from "./gen-ai-spans.js";
export { otelPlugin, otelConfigPlugin, OtelOptions, type OtelPluginOptions } from "./otel-plugin.js";
export { otelConfigPlugin as default } from "./otel-plugin.js";
