import { jsonSchema, tool, type streamText, type Tool, type ToolSet } from "ai";
import type { Disposer, ExecuteOptions, ToolCallRequest, ToolResult, ToolSpec, WaitFor } from "@weft/sdk";
import { DEFAULT_APPROVAL_TIMEOUT_MS, SuspendedCalls, suspendedCallsOf } from "./suspended-calls.js";

/** The one-function form of `streamText`'s (and `generateText`'s) `toolApproval`. */
type ToolApprovalFunction = Extract<NonNullable<Parameters<typeof streamText>[0]["toolApproval"]>, (options: never) => unknown>;

/** What `toAiSdkTools` needs of a toolkit (or a session): its tool list and its one execute path. */
export interface WeftToolHost {
  readonly tools: readonly ToolSpec[];
  readonly waitFor?: WaitFor;
  /** A toolkit's kernel: the ToolSet follows its registry's changes. */
  readonly kernel?: { readonly tools: { onChange(listener: () => void): Disposer } };
  execute(call: ToolCallRequest, options?: ExecuteOptions): Promise<ToolResult>;
}

export interface AiSdkToolsOptions {
  /** Answers a tool's suspension (a question, an approval, an elicitation); the toolkit's own by default. */
  waitFor?: WaitFor;
  /** Stops following the toolkit's tool list; the set keeps the tools it has then. */
  signal?: AbortSignal;
  /** How long a call surfaced as an AI SDK approval request waits for the app's response (then it is cancelled). */
  approvalTimeoutMs?: number;
}

/**
 * The toolkit's tools as an AI SDK ToolSet. Every call goes through weft's execute path (validation,
 * the gate, time limits, feedback), so the AI SDK's own schema check is off: weft validates. A
 * suspension is answered by `waitFor` and the call resumed, as weft's own agent loop does; without one
 * the model reads that the call waits for the user. With `aiSdkToolApproval(tools)` as streamText's
 * `toolApproval`, a call that needs the user's yes or no becomes the AI SDK's approval request instead.
 *
 * The set is live: a tool added or removed later (an MCP server's list_changed, a plugin) is in it, or
 * gone, by the next step, since the AI SDK reads the set at every step.
 */
export function toAiSdkTools(host: WeftToolHost, options: AiSdkToolsOptions = {}): ToolSet {
  const tools: ToolSet = {};
  const calls = new SuspendedCalls(host, options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS);
  suspendedCallsOf.set(tools, calls);
  let made = new Map<ToolSpec, Tool>();
  const sync = () => {
    const current = host.tools;
    if (current.length === made.size && current.every((spec) => made.has(spec))) return;
    // Rebuilt in the host's (sorted) order: the AI SDK sends tools in key order, and the same list must
    // give the same bytes to the model. Tools that did not change are kept as they are.
    const next = new Map(current.map((spec) => [spec, made.get(spec) ?? aiSdkTool(spec, host, calls, options.waitFor)]));
    for (const name of Object.keys(tools)) delete tools[name];
    for (const [spec, built] of next) tools[spec.name] = built;
    made = next;
  };
  sync();
  const following = host.kernel?.tools.onChange(sync);
  if (following) options.signal?.addEventListener("abort", () => void following(), { once: true });
  return tools;
}

/**
 * The `toolApproval` of `streamText` / `generateText` for a set made by `toAiSdkTools`: a weft call that
 * suspends on an approval (or a page the user must visit) is an approval request whose `reason` is the
 * tool's message; approving resumes the call, denying tells the tool (an MCP server hears its decline).
 * Other tools of the set, and tools not in it, need no approval.
 */
export function aiSdkToolApproval(tools: ToolSet): ToolApprovalFunction {
  const calls = suspendedCallsOf.get(tools);
  return async ({ toolCall, messages }) => {
    if (!calls || toolCall.dynamic || !Object.hasOwn(tools, toolCall.toolName)) return undefined;
    return calls.approval({ id: toolCall.toolCallId, name: toolCall.toolName, arguments: argumentsOf(toolCall.input) }, messages);
  };
}

function aiSdkTool(spec: ToolSpec, host: WeftToolHost, calls: SuspendedCalls, waitFor: WaitFor | undefined): Tool {
  return tool({
    description: spec.description,
    inputSchema: jsonSchema<Record<string, unknown>>(spec.inputSchema),
    execute: (input: Record<string, unknown>, { toolCallId, abortSignal, messages }): Promise<ToolResult> =>
      // The AI SDK passes no signal when the app gave none; waitFor still needs one.
      calls.run({ id: toolCallId, name: spec.name, arguments: input ?? {} }, abortSignal ?? new AbortController().signal, waitFor ?? host.waitFor, messages),
    // The model reads weft's output text; an error result is sent as the AI SDK's error text.
    toModelOutput: ({ output }: { output: ToolResult }) => (output.isError ? { type: "error-text", value: output.output } : { type: "text", value: output.output }),
  });
}

function argumentsOf(input: unknown): Record<string, unknown> {
  return typeof input === "object" && input !== null && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}
