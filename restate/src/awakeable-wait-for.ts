import type { PendingAnswer, Suspension, WaitFor } from "@weft/sdk";
import type { ObjectContext } from "@restatedev/restate-sdk";
import type { JournalEvents } from "./journal-events.js";

/** The object's state key naming the awakeable a pending turn waits on, with its request. */
export const AWAITING_KEY = "awaiting";

export interface Awaiting {
  /** Resolve it through the ingress (`POST /restate/awakeables/<id>/resolve`) or the `answer` handler. */
  awakeableId: string;
  suspension: Suspension;
}

/**
 * Answers a suspension with a Restate awakeable: the turn waits durably, holding no worker (the
 * invocation suspends), until the host resolves it, by HTTP or with the object's `answer` handler.
 */
export function awakeableWaitFor(ctx: ObjectContext, steps: JournalEvents): WaitFor {
  return async (suspension) => {
    const { id, promise } = ctx.awakeable<PendingAnswer>();
    ctx.set<Awaiting>(AWAITING_KEY, { awakeableId: id, suspension });
    // A step of its own, after the awakeable is known, so the caller hears of the request (`tool.pending`)
    // once, and only when an answer to it can be taken: a caller that answers as soon as it hears is not
    // told the session "waits for no answer".
    await steps.step("report pending", async () => null);
    const answer = await promise;
    ctx.clear(AWAITING_KEY);
    return answer;
  };
}
