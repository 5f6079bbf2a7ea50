import type { CallResult } from "./flatten-result.js";

type Parsed = { success: true; data: CallResult } | { success: false; error: Error };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

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
 * only the shape weft's reading relies on, and passes the result through as it came. The SDK accepts
 * any object with `safeParse` here.
 */
export const callResultShape = {
  safeParse(result: unknown): Parsed {
    const problem = callResultProblem(result);
    return problem === undefined ? { success: true, data: result as CallResult } : { success: false, error: new Error(`its tools/call result cannot be read: ${problem}`) };
  },
};
