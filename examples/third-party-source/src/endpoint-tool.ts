import { Type, type Static } from "typebox";
import { defineTool, errorMessage, errorResult } from "@weft/sdk";

/** One endpoint as `endpoints:` names it: a GET the model can make by name. */
export const endpointSchema = Type.Object(
  {
    url: Type.String({ description: "http(s) URL fetched with GET" }),
    description: Type.String({ description: "What the endpoint returns: the tool description the model reads" }),
  },
  { additionalProperties: false },
);

export type Endpoint = Static<typeof endpointSchema>;

/** Bodies longer than this are cut, with a note saying so. */
export const MAX_BODY_CHARS = 20_000;

/** A tool that GETs the endpoint and returns its body; a failing status or network error is a result the model reads. */
export function endpointTool(name: string, endpoint: Endpoint) {
  return defineTool({
    name,
    description: endpoint.description,
    input: Type.Object({}),
    annotations: { readOnlyHint: true, openWorldHint: true },
    execute: async (_args, ctx) => {
      try {
        const response = await fetch(endpoint.url, { signal: ctx.signal });
        const body = await response.text();
        if (!response.ok) return errorResult(`${name}: ${endpoint.url} answered ${response.status}: ${body.slice(0, 200)}`);
        return body.length > MAX_BODY_CHARS ? `${body.slice(0, MAX_BODY_CHARS)}\n[cut at ${MAX_BODY_CHARS} characters]` : body;
      } catch (error) {
        return errorResult(`${name}: ${endpoint.url} could not be fetched: ${errorMessage(error)}`);
      }
    },
  });
}
