import { errorMessage } from "./errors.js";
import { isRecord } from "./is-record.js";
import type { ToolCall } from "./message.js";

/**
 * The arguments of a tool call from the text a model streamed. Text that is not a JSON object never
 * fails the reply: the call keeps it in `invalidArguments`, so the model can be told what it got wrong.
 */
export function parseToolArguments(text: string): Pick<ToolCall, "arguments" | "invalidArguments"> {
  if (text.trim() === "") return { arguments: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { arguments: {}, invalidArguments: { text, problem: `not valid JSON: ${errorMessage(error)}` } };
  }
  if (isRecord(parsed)) return { arguments: parsed };
  return { arguments: {}, invalidArguments: { text, problem: `not a JSON object but ${jsonKind(parsed)}` } };
}

function jsonKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}
