import type { Tracer } from "@opentelemetry/api";
import { definePlugin, errorMessage, PLUGIN_API_VERSION, Type } from "@weft/sdk";
import type { Plugin } from "@weft/sdk";
import { GenAiSpans, type OtelApi } from "./gen-ai-spans.js";

export const OtelOptions = Type.Object({
  agentName: Type.Optional(Type.String({ minLength: 1, description: "gen_ai.agent.name on invoke_agent spans" })),
  captureContent: Type.Optional(Type.Boolean({ description: "Record messages, tool arguments and results (default false)" })),
});

export interface OtelPluginOptions {
  agentName?: string;
  captureContent?: boolean;
  /** The tracer to use; the global tracer provider's `@weft/otel` tracer by default. */
  tracer?: Tracer;
}

const META = { name: "@weft/otel", version: "0.1.0", api: PLUGIN_API_VERSION, description: "OpenTelemetry GenAI spans" } as const;

/** In code: `kernel.use(otelPlugin({ tracer, captureContent: true }))`. */
export function otelPlugin(options: OtelPluginOptions = {}): Plugin {
  return definePlugin({ meta: META, setup: (api) => setupSpans(api, options) });
}

/** In config: `plugins: [{ "@weft/otel": { agentName: support } }]`; spans go to the registered tracer provider. */
export const otelConfigPlugin = definePlugin({ meta: META, options: OtelOptions, setup: (api, options) => setupSpans(api, options) });

async function setupSpans(api: Parameters<Plugin["setup"]>[0], options: OtelPluginOptions): Promise<void> {
  let otel: OtelApi;
  try {
    otel = await import("@opentelemetry/api");
  } catch (error) {
    // An optional peer: without it there is nothing to report to, and the run goes on untraced.
    api.logger.warn(`@weft/otel: @opentelemetry/api is not installed (${errorMessage(error)}); no spans are recorded. npm install @opentelemetry/api`);
    return;
  }
  const tracer = options.tracer ?? otel.trace.getTracer(META.name, META.version);
  const spans = new GenAiSpans(otel, tracer, { ...options, toolSource: (name) => api.tools.get(name)?.source });
  api.hooks.feedback.tap((event, context) => spans.observe(event, context));
  api.provide("traceContext", { headers: ({ sessionId, callId }) => spans.traceHeaders(sessionId, callId), requestHeaders: (key) => spans.requestHeaders(key) });
  if (options.captureContent) {
    api.hooks.beforeModelCall.tap((request, _info, context) => {
      spans.recordRequest(request, context);
      return request;
    });
  }
}
