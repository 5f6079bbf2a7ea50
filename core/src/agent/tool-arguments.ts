import { errorResult } from "@weft/sdk";
import type { ToolCall, ToolResult } from "@weft/sdk";

/** How much of the argument text the model is shown back: enough to find its mistake. */
const ECHOED_CHARS = 200;

/**
 * The error result for a call that cannot reach the execute path: arguments that are not a JSON
 * object, or no tool name. The model reads what was wrong and what it sent, and can call again.
 */
export function unusableCallResult(call: ToolCall): ToolResult | undefined {
  if (call.name.trim() === "") return errorResult("the tool call has no tool name: call a tool by one of the names in your tool list", { invalidCall: "name" });
  const invalid = call.invalidArguments;
  if (!invalid) return undefined;
  return errorResult(`arguments were ${invalid.problem}; the text received was: ${invalid.text.slice(0, ECHOED_CHARS)}`, { invalidCall: "arguments" });
}

/** What identifies a call for the loop guard: the text the model wrote when it could not be parsed. */
export function callArgumentsKey(call: ToolCall): unknown {
  return call.invalidArguments ? { invalidArguments: call.invalidArguments.text } : call.arguments;
}
