import { errorMessage, errorResult } from "@weft/sdk";
import type { PendingAnswer, PendingRequest, Suspension, ToolResult } from "@weft/sdk";

/** The request part of a suspension, as the tool raised it. */
export function requestOf(suspension: Suspension): PendingRequest {
  const { callId: _callId, toolName: _toolName, ...request } = suspension;
  return request;
}

/** What the model reads when the host did not accept: the tool is not run again. */
export function unansweredResult(request: PendingRequest, answer: PendingAnswer): ToolResult {
  const verb = answer.action === "cancel" ? "cancelled" : "declined";
  return errorResult(`the user ${verb} the request: ${request.message}`, { answer: answer.action });
}

/** The host's `waitFor` failed (it timed out, or broke). */
export function noAnswerResult(request: PendingRequest, error: unknown): ToolResult {
  return errorResult(`no answer to the request: ${request.message} (${errorMessage(error)})`, { expired: true });
}

/** The host sent a new message instead of answering. */
export function abandonedResult(request: PendingRequest): ToolResult {
  return errorResult(`no answer to the request: ${request.message} (the user sent a new message instead)`, { abandoned: true });
}

/** The turn was aborted while the host had not answered yet. */
export function abortedWaitingResult(toolName: string): ToolResult {
  return errorResult(`${toolName} was aborted while waiting for an answer`, { aborted: true });
}
