import { errorMessage } from "./errors.js";
import { errorResult } from "./tool.js";
import type { ExecuteOptions, PendingAnswer, PendingRequest, ToolCallRequest, ToolResult, WaitFor } from "./tool.js";

/**
 * Runs one call and settles its suspensions the way weft's agent loop does, for hosts outside it (an
 * AI SDK app, an MCP client): each `pending` request goes to `waitFor` and an accepted answer resumes
 * the call; a decline, a cancel or a failed wait becomes the result the model reads. Without `waitFor`
 * the model reads that the call waits for the user.
 */
export async function executeWithAnswers(
  execute: (call: ToolCallRequest, options?: ExecuteOptions) => Promise<ToolResult>,
  call: ToolCallRequest & { id: string },
  signal: AbortSignal,
  waitFor: WaitFor | undefined,
): Promise<ToolResult> {
  let resumed: { answer: PendingAnswer; pending: PendingRequest } | undefined;
  while (true) {
    const result = await execute(call, { signal, ...resumed });
    if (!result.pending) return result;
    if (!waitFor) return errorResult(`${call.name} is waiting for the user: ${result.pending.message} (this host cannot answer it)`, { pending: result.pending });
    let answer: PendingAnswer;
    try {
      answer = await waitFor({ ...result.pending, callId: call.id, toolName: call.name }, signal);
    } catch (error) {
      return errorResult(`no answer to the request: ${result.pending.message} (${errorMessage(error)})`, { expired: true });
    }
    if (answer.action !== "accept") {
      return errorResult(`the user ${answer.action === "cancel" ? "cancelled" : "declined"} the request: ${result.pending.message}`, { answer: answer.action });
    }
    resumed = { answer, pending: result.pending };
  }
}
