import { errorMessage } from "./errors.js";
import { errorResult } from "./tool.js";
import type { ExecuteOptions, PendingAnswer, PendingRequest, ToolCallRequest, ToolResult, WaitFor } from "./tool.js";

/**
 * Runs one call and settles its suspensions the way weft's agent loop does, for hosts outside it (an
 * AI SDK app, an MCP client): each `pending` request goes to `waitFor` and the call runs again with the
 * answer, whatever it is, so the source that asked (an MCP server, an A2A task) learns a decline or a
 * cancel too and is not left waiting; a decline, a cancel or a failed wait then becomes the result the
 * model reads. Without `waitFor` the model reads that the call waits for the user.
 */
export async function executeWithAnswers(
  execute: (call: ToolCallRequest, options?: ExecuteOptions) => Promise<ToolResult>,
  call: ToolCallRequest & { id: string },
  signal: AbortSignal,
  waitFor: WaitFor | undefined,
): Promise<ToolResult> {
  let resumed: Answered | undefined;
  while (true) {
    const result = await execute(call, { signal, ...(resumed && { answer: resumed.answer, pending: resumed.pending }) });
    if (resumed && resumed.answer.action !== "accept") return unanswered(resumed);
    if (!result.pending) return result;
    if (!waitFor) return errorResult(`${call.name} is waiting for the user: ${result.pending.message} (this host cannot answer it)`, { pending: result.pending });
    try {
      resumed = { answer: await waitFor({ ...result.pending, callId: call.id, toolName: call.name }, signal), pending: result.pending };
    } catch (error) {
      resumed = { answer: { action: "cancel", reason: "timeout" }, pending: result.pending, failure: errorMessage(error) };
    }
  }
}

/** The answer a re-run carries; `failure` when the host's `waitFor` broke (a `cancel` with `reason: "timeout"`). */
interface Answered {
  answer: PendingAnswer;
  pending: PendingRequest;
  failure?: string;
}

/** What the model reads after a decline, a cancel or a wait that failed. */
function unanswered({ answer, pending, failure }: Answered): ToolResult {
  if (failure !== undefined) return errorResult(`no answer to the request: ${pending.message} (${failure})`, { expired: true });
  return errorResult(`the user ${answer.action === "cancel" ? "cancelled" : "declined"} the request: ${pending.message}`, { answer: answer.action });
}
