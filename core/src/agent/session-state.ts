import type { Message, Suspension, ToolCall, ToolMessage, TurnMetadata, TurnRecord } from "@weft/sdk";
import type { LoopGuardState } from "./loop-guard.js";

/**
 * One call of the round a turn stopped in: answered (`message`), waiting (`suspension`), or neither: it
 * was running when the process stopped (an interrupted turn, rebuilt from write-ahead records).
 */
export interface PendingSlot {
  call: ToolCall;
  message?: ToolMessage;
  suspension?: Suspension;
}

/** A turn stopped at a suspension with no `waitFor`, waiting for `agent.resume(answer)`. */
export interface PendingTurn {
  /** The calls of the last assistant message, in call order. */
  slots: PendingSlot[];
  /** The turn's metadata so far; resuming keeps counting. */
  metadata: TurnMetadata;
  guard: LoopGuardState;
  /** The round breached the loop guard a second time: once answered, the turn ends incomplete. */
  stop?: boolean;
  /** The turn's id in write-ahead records and idempotency keys; kept when it resumes. */
  turnId?: string;
  /**
   * The process stopped in this turn (its write-ahead records outlived the last save): `resume()` without
   * an answer continues it. `slots` is empty when it stopped before or during a model call.
   */
  interrupted?: true;
}

/** The last prompt size the provider reported, and how many transcript messages it covered. */
export interface TokenBaseline {
  tokens: number;
  messages: number;
}

/** Everything a session needs to resume in another process; plain JSON. */
export interface SessionState {
  version: 1;
  sessionId: string;
  /** The session's own system prompt, before the kernel's prompt sections are added. */
  prompt?: string;
  /** The transcript without the system message (rebuilt before every model call). */
  messages: Message[];
  /**
   * What the session's services keep with it, by service name (`SessionStateService` in the sdk): the
   * agent's todo list (`todos`), token baseline and usage (`agent.*`), and any plugin's. Absent: none.
   */
  services?: Record<string, unknown>;
  pending?: PendingTurn;
  /** As loaded: the write-ahead records of a turn that stopped before it saved (a store with `append`). */
  records?: TurnRecord[];
}
