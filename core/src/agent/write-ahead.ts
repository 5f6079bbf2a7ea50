import type { SessionTools, ToolMessage, TurnRecord } from "@weft/sdk";
import { LoopGuard } from "./loop-guard.js";
import type { PendingSlot, PendingTurn, SessionState } from "./session-state.js";
import type { SessionStore } from "./session-store.js";
import { TurnTally } from "./turn-tally.js";

/** What the model reads for a call that was running when the process stopped, and is not re-run. */
export const INTERRUPTED_TEXT = "the process stopped while this tool ran; it may or may not have completed";

/**
 * The write-ahead log of a session's running turns: each record reaches the store before the step after
 * it begins (a tool runs only once its call is stored). Appends go one at a time, in the order they were
 * made, so parallel results never race each other for the store's version.
 */
export class WriteAhead {
  #tail: Promise<void> = Promise.resolve();

  constructor(
    /** None for an agent without a store: its turns are kept nowhere but in the agent. */
    private readonly store: SessionStore | undefined,
    private readonly sessionId: string,
  ) {}

  /** Resolves once the record is stored; undefined when it is not (a store without `append` keeps turns only when they end). */
  record(record: TurnRecord): Promise<void> | undefined {
    const store = this.store;
    if (!store?.append) return undefined;
    const stored = this.#tail.then(() => store.append?.(this.sessionId, record));
    // A failed append fails the step that made it; the next still waits its turn.
    this.#tail = stored.catch(() => undefined);
    return stored;
  }
}

/**
 * A loaded session with the records of a turn that stopped before it saved, folded into its transcript.
 * The turn's completed calls keep their results; when it stopped inside a round or before the model
 * answered, the session comes back with an `interrupted` pending turn that `resume()` continues.
 */
export function foldRecords(state: SessionState): SessionState {
  const { records = [], ...rest } = state;
  if (records.length === 0) return rest;
  const messages = [...state.messages];
  let round: PendingSlot[] | undefined = state.pending ? structuredClone(state.pending.slots) : undefined;
  let turnId = state.pending?.turnId;
  const closeRound = () => {
    for (const slot of round ?? []) messages.push(slot.message ?? interruptedMessage(slot));
    round = undefined;
  };
  for (const record of records) {
    turnId = record.turnId;
    if (record.kind === "tool-result") {
      const slot = round?.find((candidate) => candidate.call.id === record.message.toolCallId && !candidate.message);
      if (slot) {
        slot.message = record.message;
        delete slot.suspension;
      }
      continue;
    }
    closeRound();
    messages.push(record.message);
    if (record.kind === "assistant" && record.message.toolCalls?.length) round = record.message.toolCalls.map((call) => ({ call }));
  }
  const folded: SessionState = { ...rest, messages };
  delete folded.pending;
  const last = messages.at(-1);
  // A final answer was recorded: the turn had ended, only its save was lost.
  if (!round && last?.role === "assistant") return folded;
  const prior = state.pending;
  const pending: PendingTurn = {
    slots: round ?? [],
    metadata: prior?.metadata ?? new TurnTally().metadata(),
    guard: prior?.guard ?? new LoopGuard(0).state(),
    ...(turnId !== undefined ? { turnId } : {}),
  };
  // Slots that only wait for the host keep the turn pending; anything else needs `resume()` to go on.
  const waitingOnly = pending.slots.some((slot) => slot.suspension) && pending.slots.every((slot) => slot.message || slot.suspension);
  if (!waitingOnly) pending.interrupted = true;
  folded.pending = pending;
  return folded;
}

/**
 * Settles the calls an interrupted round left running: a tool that declares itself idempotent runs
 * again (with the same idempotency key), any other is answered as interrupted and the model decides.
 */
export async function settleInterrupted(slots: PendingSlot[], tools: Pick<SessionTools, "get">, rerun: (slots: PendingSlot[]) => Promise<void>, record: (message: ToolMessage) => Promise<void> | undefined): Promise<void> {
  const running = slots.filter((slot) => !slot.message && !slot.suspension);
  const again = running.filter((slot) => tools.get(slot.call.name)?.annotations?.idempotentHint === true);
  for (const slot of running) {
    if (again.includes(slot)) continue;
    slot.message = interruptedMessage(slot);
    await record(slot.message);
  }
  if (again.length > 0) await rerun(again);
}

export function interruptedMessage({ call }: PendingSlot): ToolMessage {
  return { role: "tool", toolCallId: call.id, toolName: call.name, content: INTERRUPTED_TEXT, isError: true };
}
