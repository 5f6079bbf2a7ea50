import type { ModelMessage, ToolApprovalStatus, ToolSet } from "ai";
import { executeWithAnswers } from "@weft/sdk";
import type { PendingRequest, ToolCallRequest, ToolResult, WaitFor } from "@weft/sdk";
import type { WeftToolHost } from "./to-ai-sdk-tools.js";

/** How long a call surfaced as an approval request waits for the app's response when none is set. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 600_000;

type Call = ToolCallRequest & { id: string };

interface Held {
  call: Call;
  pending: PendingRequest;
  reason: string;
  timer: NodeJS.Timeout;
}

/**
 * The AI SDK decides on approval before a tool runs; a weft tool learns it needs one only while it runs
 * (its gate, an MCP server's question). So the approval check runs the weft call: a call that suspends
 * on a request the user can settle by yes or no (an approval, a page to visit) is held here and becomes
 * the AI SDK's approval request; any other call's result is kept for the AI SDK's `execute`, which
 * follows at once. An approved call resumes with `accept`; a denied one hears `decline` the next time
 * the set sees the conversation (an approval check or a call, whose messages carry the denial), and a
 * call nobody answers hears `cancel` (reason `timeout`) after `timeoutMs`.
 */
export class SuspendedCalls {
  readonly #ran = new Map<string, ToolResult>();
  readonly #held = new Map<string, Held>();

  constructor(
    private readonly host: WeftToolHost,
    private readonly timeoutMs: number,
  ) {}

  /** The AI SDK's approval check of one call. */
  async approval(call: Call, messages: ModelMessage[]): Promise<ToolApprovalStatus> {
    this.#deliverDenials(messages);
    // Asked again for a call already held: the AI SDK checks an approved call once more before it runs it.
    const held = this.#held.get(call.id);
    if (held) return { type: "user-approval", reason: held.reason };
    const result = await this.host.execute(call, { signal: new AbortController().signal });
    if (!result.pending || !settledByYesOrNo(result.pending)) {
      this.#ran.set(call.id, result);
      return { type: "not-applicable" };
    }
    const { pending } = result;
    const reason = pending.url ? `${pending.message} (${pending.url})` : pending.message;
    const timer = setTimeout(() => this.#answer(call.id, { action: "cancel", reason: "timeout" }), this.timeoutMs);
    // A request nobody answers must not keep the process alive.
    timer.unref();
    this.#held.set(call.id, { call, pending, reason, timer });
    return { type: "user-approval", reason };
  }

  /**
   * The AI SDK's `execute`: the result the approval check already has, the held call resumed (the AI SDK
   * runs an approval-requested call only once it is approved), or the call run now. Later suspensions
   * go to `waitFor`, as they would without approvals.
   */
  run(call: Call, signal: AbortSignal, waitFor: WaitFor | undefined, messages: ModelMessage[]): Promise<ToolResult> {
    this.#deliverDenials(messages);
    const ran = this.#ran.get(call.id);
    this.#ran.delete(call.id);
    const held = this.#take(call.id);
    let first: Promise<ToolResult> | undefined =
      ran !== undefined ? Promise.resolve(ran) : held ? this.host.execute(call, { signal, answer: { action: "accept" }, pending: held.pending }) : undefined;
    return executeWithAnswers(
      (resumed, options) => {
        const result = first ?? this.host.execute(resumed, options);
        first = undefined;
        return result;
      },
      call,
      signal,
      waitFor,
    );
  }

  #take(callId: string): Held | undefined {
    const held = this.#held.get(callId);
    if (!held) return undefined;
    this.#held.delete(callId);
    clearTimeout(held.timer);
    return held;
  }

  /** Tells a held call its answer; what it returns is for nobody (the model reads the AI SDK's denial). */
  #answer(callId: string, answer: { action: "decline" } | { action: "cancel"; reason: "timeout" }): void {
    const held = this.#take(callId);
    if (!held) return;
    void this.host.execute(held.call, { signal: new AbortController().signal, answer, pending: held.pending }).catch(() => undefined);
  }

  /** Denials in the conversation (an approval request's id, answered `approved: false`) reach their held call. */
  #deliverDenials(messages: ModelMessage[]): void {
    if (this.#held.size === 0) return;
    const callOf = new Map<string, string>();
    const denied: string[] = [];
    for (const message of messages) {
      if (typeof message.content === "string") continue;
      for (const part of message.content) {
        if (part.type === "tool-approval-request") callOf.set(part.approvalId, part.toolCallId);
        else if (part.type === "tool-approval-response" && !part.approved) denied.push(part.approvalId);
      }
    }
    for (const approvalId of denied) {
      const callId = callOf.get(approvalId);
      if (callId !== undefined) this.#answer(callId, { action: "decline" });
    }
  }
}

/** A request whose answer carries no content: the AI SDK's yes or no settles it. */
function settledByYesOrNo(pending: PendingRequest): boolean {
  return pending.kind === "approval" || (pending.url !== undefined && pending.schema === undefined);
}

/** The calls each ToolSet made by `toAiSdkTools` holds. */
export const suspendedCallsOf = new WeakMap<ToolSet, SuspendedCalls>();
