import { jsonSchema, tool, type ToolSet } from "ai";
import { executeWithAnswers } from "@weft/sdk";
import type { ExecuteOptions, ToolCallRequest, ToolResult, ToolSpec, WaitFor } from "@weft/sdk";

/** What `toAiSdkTools` needs of a toolkit (or a session): its tool list and its one execute path. */
export interface WeftToolHost {
  readonly tools: readonly ToolSpec[];
  readonly waitFor?: WaitFor;
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
}

export interface AiSdkToolsOptions {
  /** Answers a tool's suspension (a question, an approval, an elicitation); the toolkit's own by default. */
  waitFor?: WaitFor;
}

/**
 * The toolkit's tools as an AI SDK ToolSet. Every call goes through weft's execute path (validation,
 * the gate, time limits, feedback), so the AI SDK's own schema check is off: weft validates. A
 * suspension is answered by `waitFor` and the call resumed, as weft's own agent loop does; without one
 * the model reads that the call waits for the user. The set is a snapshot: build it per request when
 * the tool list can change (MCP servers).
 */
export function toAiSdkTools(host: WeftToolHost, options: AiSdkToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  for (const spec of host.tools) {
    tools[spec.name] = tool({
      description: spec.description,
      inputSchema: jsonSchema<Record<string, unknown>>(spec.inputSchema),
      execute: (input: Record<string, unknown>, { toolCallId, abortSignal }): Promise<ToolResult> =>
        // The AI SDK passes no signal when the app gave none; waitFor still needs one.
        executeWithAnswers(
          (call, executeOptions) => host.execute(call, executeOptions),
          { id: toolCallId, name: spec.name, arguments: input ?? {} },
          abortSignal ?? new AbortController().signal,
          options.waitFor ?? host.waitFor,
        ),
      // The model reads weft's output text; an error result is sent as the AI SDK's error text.
      toModelOutput: ({ output }: { output: ToolResult }) => (output.isError ? { type: "error-text", value: output.output } : { type: "text", value: output.output }),
    });
  }
  return tools;
}
