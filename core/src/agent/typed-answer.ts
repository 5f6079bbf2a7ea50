import type { ChatRequest, OutputRequest } from "@weft/sdk";

/**
 * A turn with `output: { schema }`: every model call of the turn carries the schema, so a provider's
 * native mode shapes the final answer while the tools stay on offer (a reply that calls tools is a
 * step and is not checked); the ChatModel validates the answer, repairs it once or throws an
 * OutputValidationError. The schema is added after the `beforeModelCall` hooks, which see plain
 * data: a Standard Schema value carries functions.
 */
export function withOutput(request: ChatRequest, output: OutputRequest | undefined): ChatRequest {
  return output ? { ...request, output } : request;
}
