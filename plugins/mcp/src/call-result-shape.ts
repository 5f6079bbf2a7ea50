import type { StandardSchemaV1 } from "@modelcontextprotocol/client";
import { isRecord } from "@weft/sdk";
import type { CallResult } from "./flatten-result.js";

/** What is wrong with a `tools/call` result, as far as weft reads it; undefined when it can be read. */
export function callResultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return "the result is not an object";
  const { content, structuredContent, isError } = result;
  if (content !== undefined) {
    if (!Array.isArray(content)) return "`content` is not a list";
    const index = content.findIndex((block) => !isRecord(block) || typeof block.type !== "string");
    if (index >= 0) return `content block ${index} has no \`type\``;
  }
  if (structuredContent !== undefined && !isRecord(structuredContent)) return "`structuredContent` is not an object";
  if (isError !== undefined && typeof isError !== "boolean") return "`isError` is not a boolean";
  return undefined;
}

/**
 * The result check handed to the SDK's `request` in place of its CallToolResultSchema: the SDK's zod
 * parse validated (and copied) every block, then weft read the same blocks again, block type by block
 * type (flatten-result.ts), and checked `structuredContent` against the outputSchema itself. This checks
 * only the shape weft's reading relies on, and passes the result through as it came. The SDK (2.x)
 * takes any Standard Schema here; it reports a failure as `Invalid result for tools/call: <message>`.
 */
export const callResultShape: StandardSchemaV1<unknown, CallResult> = {
  "~standard": {
    version: 1,
    vendor: "weft",
    validate(result: unknown) {
      const problem = callResultProblem(result);
      return problem === undefined ? { value: result as CallResult } : { issues: [{ message: `its tools/call result cannot be read: ${problem}` }] };
    },
  },
};
