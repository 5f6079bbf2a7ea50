import { errorResult } from "@weft/sdk";
import type { ExecuteOptions, FeedbackEvent, KernelSession, PendingAnswer, PendingRequest, ToolCall, ToolMessage, ToolResult, WaitFor } from "@weft/sdk";
import { repeatedCallMessage, type LoopGuard } from "./loop-guard.js";
import type { PendingSlot } from "./session-state.js";
import { unusableCallResult } from "./tool-arguments.js";
import { abandonedResult, abortedWaitingResult, noAnswerResult, requestOf, unansweredResult } from "./suspension.js";

export interface RoundContext {
  /** The session whose execute path runs the calls. */
  session: KernelSession;
  signal: AbortSignal;
  /** Run the calls of one round concurrently (results still go back in call order). */
  parallel: boolean;
  waitFor?: WaitFor;
  guard: LoopGuard;
  /**
   * `<session id>/<turn id>/`, the start of each call's idempotency key (the call's id ends it): joined
   * once per round, so a call adds one piece to it rather than building the key from four.
   */
  keyPrefix: string;
  /** Writes a settled result ahead, before the call counts as done; undefined when nothing is written ahead (no store). */
  record(message: ToolMessage): Promise<void> | undefined;
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
  // The result field is there from the start: added later, it took a property store of its own per slot.
  const slots: PendingSlot[] = calls.map((call) => ({ call, message: undefined }));
  let stop = false;
  const runnable: PendingSlot[] = [];
  // The guard sees the calls in call order, before any runs, so a batch of identical calls trips it too.
  for (const slot of slots) {
    const verdict = context.guard.check(slot.call);
    if (!verdict.repeated) {
      const unusable = unusableCallResult(slot.call);
      if (!unusable) runnable.push(slot);
      else {
        slot.message = toolMessage(slot.call, unusable);
        context.emit({ type: "tool.returned", callId: slot.call.id, name: slot.call.name, result: unusable, isError: true, elapsedMs: 0 });
      }
      continue;
    }
    context.emit({ type: "tool.repeated", callId: slot.call.id, name: slot.call.name, arguments: slot.call.arguments, count: verdict.count });
    slot.message = toolMessage(slot.call, errorResult(repeatedCallMessage(slot.call.name, verdict.count), { repeated: verdict.count }));
    await context.record(slot.message);
    if (verdict.breach >= 2) stop = true;
  }
  await runCalls(runnable, context);
  return { slots, stop };
}

/** Runs calls afresh (concurrently when the context says so); each settled result is written ahead. */
export async function runCalls(slots: PendingSlot[], context: RoundContext): Promise<void> {
  const host = new HostQueue(context);
  if (context.parallel) {
    await Promise.all(slots.map((slot) => runSlot(slot, context, host)));
    return;
  }
  for (const slot of slots) {
    if (context.signal.aborted) slot.message = toolMessage(slot.call, errorResult(`${slot.call.name} was aborted before it started`, { aborted: true }));
    else await runSlot(slot, context, host);
  }
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

/**
 * New input instead of an answer: every waiting slot's tool runs again with a `cancel` (reason
 * `abandoned`), one at a time, so its source learns the question is off; a slot that was running
 * when the process stopped is answered as `settleRunning` says.
 */
export async function abandonSlots(slots: PendingSlot[], context: RoundContext, settleRunning: (slot: PendingSlot) => ToolMessage): Promise<void> {
  for (const slot of slots) {
    if (slot.suspension) await answerSlot(slot, { action: "cancel", reason: "abandoned" }, { ...context, waitFor: undefined });
    else if (!slot.message) {
      slot.message = settleRunning(slot);
      await context.record(slot.message);
    }
  }
}

export function toolMessage(call: ToolCall, result: ToolResult): ToolMessage {
  const message: ToolMessage = { role: "tool", toolCallId: call.id, toolName: call.name, content: result.output };
  if (result.parts?.length) message.parts = result.parts;
  if (result.isError) message.isError = true;
  return message;
}

/**
 * Runs a slot's call until it has a result, written ahead as `slot.message`, or is left waiting for
 * `agent.resume` (`slot.suspension`).
 */
async function runSlot(slot: PendingSlot, context: RoundContext, host: HostQueue, resumed?: Answered): Promise<void> {
  const { call } = slot;
  const options: ExecuteOptions = { signal: context.signal, idempotencyKey: context.keyPrefix + call.id };
  let answered = resumed;
  let message: ToolMessage | undefined;
  while (!message) {
    const result = await context.session.execute(call, answered ? { ...options, answer: answered.answer, pending: answered.pending } : options);
    if (!result.pending || context.signal.aborted) message = toolMessage(call, result);
    // A tool that asks again after a refusal gets no second round: the refusal is what the model reads.
    else if (answered && answered.answer.action !== "accept") message = toolMessage(call, unanswered(answered));
    else {
      const suspension = { ...result.pending, callId: call.id, toolName: call.name };
      context.emit({ type: "tool.pending", suspension });
      if (!context.waitFor) {
        slot.suspension = suspension;
        return;
      }
      const reply = await host.ask(context.waitFor, suspension);
      if ("output" in reply) {
        // The turn was aborted while the host had not answered: the tool still hears it (its signal is
        // aborted, so it only tells its source), and the model reads that the wait was aborted.
        await context.session.execute(call, { ...options, answer: { action: "cancel", reason: "aborted" }, pending: result.pending });
        message = toolMessage(call, reply);
      } else answered = { answer: reply.answer, pending: result.pending, ...(reply.failure !== undefined ? { failure: reply.failure } : {}) };
    }
  }
  slot.message = message;
  // Without a store there is nothing to wait for, and no microtask per call spent on it.
  const stored = context.record(message);
  if (stored) await stored;
}

/** The answer a re-run carries; `failure` when the host's `waitFor` broke or timed out (a `cancel` with `reason: "timeout"`). */
interface Answered {
  answer: PendingAnswer;
  pending: PendingRequest;
  failure?: unknown;
}

function unanswered({ answer, pending, failure }: Answered): ToolResult {
  if (failure !== undefined) return noAnswerResult(pending, failure);
  return answer.reason === "abandoned" ? abandonedResult(pending) : unansweredResult(pending, answer);
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
