import { errorResult } from "@weft/sdk";
import type { FeedbackEvent, KernelSession, PendingAnswer, PendingRequest, ToolCall, ToolMessage, ToolResult, WaitFor } from "@weft/sdk";
import { repeatedCallMessage, type LoopGuard } from "./loop-guard.js";
import type { PendingSlot } from "./session-state.js";
import { abortedWaitingResult, noAnswerResult, requestOf, unansweredResult } from "./suspension.js";

export interface RoundContext {
  /** The session whose execute path runs the calls. */
  session: KernelSession;
  signal: AbortSignal;
  /** Run the calls of one round concurrently (results still go back in call order). */
  parallel: boolean;
  waitFor?: WaitFor;
  guard: LoopGuard;
  emit(event: FeedbackEvent): void;
}

export interface RoundOutcome {
  slots: PendingSlot[];
  /** The loop guard was breached for the second time in this turn. */
  stop: boolean;
}

/**
 * Runs the tool calls of one assistant message through the session's execute path. Every slot ends with
 * a message (a result, an error, an abort) or a suspension left for `agent.resume`; nothing throws.
 */
export async function runRound(calls: ToolCall[], context: RoundContext): Promise<RoundOutcome> {
  const slots: PendingSlot[] = calls.map((call) => ({ call }));
  let stop = false;
  const runnable: PendingSlot[] = [];
  // The guard sees the calls in call order, before any runs, so a batch of identical calls trips it too.
  for (const slot of slots) {
    const verdict = context.guard.check(slot.call);
    if (!verdict.repeated) {
      runnable.push(slot);
      continue;
    }
    context.emit({ type: "tool.repeated", callId: slot.call.id, name: slot.call.name, arguments: slot.call.arguments, count: verdict.count });
    slot.message = toolMessage(slot.call, errorResult(repeatedCallMessage(slot.call.name, verdict.count), { repeated: verdict.count }));
    if (verdict.breach >= 2) stop = true;
  }
  const host = new HostQueue(context);
  if (context.parallel) {
    await Promise.all(runnable.map((slot) => runSlot(slot, context, host)));
  } else {
    for (const slot of runnable) {
      if (context.signal.aborted) slot.message = toolMessage(slot.call, errorResult(`${slot.call.name} was aborted before it started`, { aborted: true }));
      else await runSlot(slot, context, host);
    }
  }
  return { slots, stop };
}

/**
 * Settles the first waiting slot with the host's answer. Whatever it is (accept, decline, cancel), the
 * tool runs again with it in `ctx.answer`, so the source that asked (an MCP server, an A2A task) learns it.
 */
export async function answerSlot(slot: PendingSlot, answer: PendingAnswer, context: RoundContext): Promise<void> {
  const { suspension } = slot;
  if (!suspension) return;
  delete slot.suspension;
  await runSlot(slot, context, new HostQueue(context), { answer, pending: requestOf(suspension) });
}

export function toolMessage(call: ToolCall, result: ToolResult): ToolMessage {
  const message: ToolMessage = { role: "tool", toolCallId: call.id, toolName: call.name, content: result.output };
  if (result.parts?.length) message.parts = result.parts;
  if (result.isError) message.isError = true;
  return message;
}

async function runSlot(slot: PendingSlot, context: RoundContext, host: HostQueue, resumed?: Answered): Promise<void> {
  const { call } = slot;
  let answered = resumed;
  while (true) {
    const answer = answered ? { answer: answered.answer, pending: answered.pending } : {};
    const result = await context.session.execute({ id: call.id, name: call.name, arguments: call.arguments }, { signal: context.signal, ...answer });
    if (!result.pending || context.signal.aborted) {
      slot.message = toolMessage(call, result);
      return;
    }
    // A tool that asks again after a refusal gets no second round: the refusal is what the model reads.
    if (answered && answered.answer.action !== "accept") {
      slot.message = toolMessage(call, unanswered(answered));
      return;
    }
    const suspension = { ...result.pending, callId: call.id, toolName: call.name };
    context.emit({ type: "tool.pending", suspension });
    if (!context.waitFor) {
      slot.suspension = suspension;
      return;
    }
    const reply = await host.ask(context.waitFor, suspension);
    if ("output" in reply) {
      // The turn was aborted while the host had not answered.
      slot.message = toolMessage(call, reply);
      return;
    }
    answered = { answer: reply.answer, pending: result.pending, ...(reply.failure !== undefined ? { failure: reply.failure } : {}) };
  }
}

/** The answer a re-run carries; `failure` when the host's `waitFor` broke or timed out (a `cancel` with `reason: "timeout"`). */
interface Answered {
  answer: PendingAnswer;
  pending: PendingRequest;
  failure?: unknown;
}

function unanswered({ answer, pending, failure }: Answered): ToolResult {
  return failure !== undefined ? noAnswerResult(pending, failure) : unansweredResult(pending, answer);
}

/** Asks the host one question at a time, even when parallel calls suspend together. */
class HostQueue {
  #tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly context: RoundContext) {}

  /** The host's answer; its failure becomes a timeout `cancel`; an abort, the result the model reads. */
  ask(waitFor: WaitFor, suspension: Parameters<WaitFor>[0]): Promise<{ answer: PendingAnswer; failure?: unknown } | ToolResult> {
    const { signal } = this.context;
    const asked = this.#tail.then(() => untilAborted(waitFor(suspension, signal), signal)).then(
      (answer) => ({ answer }),
      (error: unknown) =>
        signal.aborted ? abortedWaitingResult(suspension.toolName) : { answer: { action: "cancel", reason: "timeout" } as PendingAnswer, failure: error },
    );
    this.#tail = asked;
    return asked;
  }
}

/** A host that ignores the signal cannot hold an aborted turn. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
