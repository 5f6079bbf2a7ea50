import type { SessionState, SessionStore } from "@weft/core";
import type { ObjectContext } from "@restatedev/restate-sdk";
import type { JournalEvents } from "./journal-events.js";

/** The object's state key holding the session. */
export const SESSION_KEY = "session";

/**
 * The session kept in the virtual object's own state: written with the journal, read by whichever
 * worker runs the next turn. The state to save passes through a step first, so a replay writes the
 * bytes the first run wrote (timings in it differ from run to run).
 */
export function restateSessionState(ctx: ObjectContext, steps: JournalEvents): SessionStore {
  let saves = 0;
  return {
    async get() {
      return (await ctx.get<SessionState>(SESSION_KEY)) ?? undefined;
    },
    async save(_sessionId, state) {
      const journaled = await steps.step(`save session ${++saves}`, async () => state);
      ctx.set(SESSION_KEY, journaled);
    },
  };
}
