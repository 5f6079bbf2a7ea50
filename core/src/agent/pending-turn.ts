import { WeftError } from "@weft/sdk";
import type { PendingAnswer } from "@weft/sdk";
import type { PendingTurn } from "./session-state.js";
import { abortedWaitingResult } from "./suspension.js";
import { abandonSlots, answerSlot, runCalls, toolMessage, type RoundContext } from "./tool-round.js";
import { interruptedMessage, settleInterrupted } from "./write-ahead.js";

/**
 * `resume(answer)` on a waiting turn settles the first waiting slot with the answer; `resume()` without
 * one continues a turn the process stopped in (its running calls re-run when idempotent, otherwise
 * answered as interrupted). Either way the round's slots are left for the turn to settle.
 */
export async function resumePending(pending: PendingTurn | undefined, answer: PendingAnswer | undefined, context: RoundContext): Promise<PendingTurn> {
  const waiting = pending?.slots.find((slot) => slot.suspension);
  if (!pending || (answer && !waiting)) {
    const hint = pending?.interrupted ? "the turn was interrupted, not waiting: call resume() without an answer to continue it" : "call process() with new input instead";
    throw new WeftError("NO_PENDING_REQUEST", `there is no pending request to answer; ${hint}`);
  }
  if (!answer && waiting) throw new WeftError("NO_PENDING_REQUEST", `the turn waits for an answer to "${waiting.suspension?.message ?? ""}": call resume(answer)`);
  if (pending.interrupted) {
    await settleInterrupted(pending.slots, context.session.tools, (slots) => runCalls(slots, context), context.record);
    delete pending.interrupted;
  }
  if (answer && waiting) await answerSlot(waiting, answer, context);
  return pending;
}

/** New input while a turn waits or was interrupted: its tools hear the cancel, and every slot gets a result. */
export async function abandonPending(pending: PendingTurn, context: RoundContext): Promise<void> {
  await abandonSlots(pending.slots, context, (slot) => (pending.interrupted ? interruptedMessage(slot) : toolMessage(slot.call, abortedWaitingResult(slot.call.name))));
}
