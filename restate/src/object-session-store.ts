import type { ObjectContext } from "@restatedev/restate-sdk";
import { SessionConflictError, type SessionSnapshot, type SessionStore, type SessionSummary, type StoredSession, type TurnRecord } from "@weft/sdk";

/** How a write is made durable: the agent's journaled steps, or a plain `ctx.run` in a store handler. */
export type Journal = <T>(name: string, action: () => Promise<T>) => Promise<T>;

/** The object's state key holding the session, as the sdk's `StoredSession`. */
export const SESSION_KEY = "session";

/**
 * The sdk's session store contract on the virtual object's own state, for the one session the object
 * is keyed by: the agent reaches it through core's `versionedSessionStore`, as it reaches the SQLite
 * or PostgreSQL store in-process, so the snapshot (prompt, transcript, pending turn, every session
 * service's state by name) is the same document whichever runner wrote it. Each write is a journaled
 * step, so a replay writes the bytes the first run wrote (its time included). The object's lock
 * already keeps two turns of one session apart; the versions are checked all the same.
 */
export function objectSessionStore(ctx: ObjectContext, journal: Journal): SessionStore {
  let writes = 0;
  const current = async (sessionId: string): Promise<StoredSession | undefined> => {
    if (sessionId !== ctx.key) throw new Error(`the session object "${ctx.key}" keeps that session only, not "${sessionId}"`);
    return (await ctx.get<StoredSession>(SESSION_KEY)) ?? undefined;
  };
  const write = async (sessionId: string, expectedVersion: number, next: (stored: StoredSession | undefined) => Omit<StoredSession, "version" | "updatedAt">): Promise<number> => {
    const stored = await current(sessionId);
    if ((stored?.version ?? 0) !== expectedVersion) throw new SessionConflictError(sessionId, expectedVersion, stored?.version);
    // Refused before the step: a step that throws would be retried.
    const document = next(stored);
    const written = await journal(`save session ${++writes}`, async () => ({ ...document, version: expectedVersion + 1, updatedAt: new Date().toISOString() }));
    ctx.set(SESSION_KEY, written);
    return written.version;
  };
  return {
    load: current,
    save: (sessionId, snapshot: SessionSnapshot, expectedVersion) => write(sessionId, expectedVersion, () => ({ ...snapshot, sessionId, records: [] })),
    append: (sessionId, record: TurnRecord, expectedVersion) =>
      write(sessionId, expectedVersion, (stored) => {
        if (!stored) throw new SessionConflictError(sessionId, expectedVersion, undefined);
        return { ...stored, records: [...stored.records, record] };
      }),
    async list(options = {}): Promise<SessionSummary[]> {
      const stored = await current(ctx.key);
      const pending = stored?.pending?.suspensions.length ?? 0;
      if (!stored || (options.pending && pending === 0) || options.limit === 0) return [];
      return [{ sessionId: stored.sessionId, version: stored.version, updatedAt: stored.updatedAt, messages: stored.messages.length, pending }];
    },
    async delete(sessionId) {
      const existed = (await current(sessionId)) !== undefined;
      ctx.clear(SESSION_KEY);
      return existed;
    },
    close: async () => {},
  };
}
