import type { SessionStore as VersionedStore, StoredSession } from "@weft/sdk";
import type { PendingTurn, SessionState } from "./session-state.js";
import type { SessionStore } from "./session-store.js";

/**
 * Lets today's agent use any store of the sdk's contract (memory, SQLite, PostgreSQL). It remembers
 * the version each session was loaded at and names it in the next save, so when another worker wrote
 * the session in between, the agent's save rejects with SessionConflictError and writes nothing.
 */
export function versionedSessionStore(store: VersionedStore): SessionStore {
  const versions = new Map<string, number>();
  return {
    async get(sessionId) {
      const stored = await store.load(sessionId);
      versions.set(sessionId, stored?.version ?? 0);
      return stored && sessionState(stored);
    },
    async save(sessionId, state) {
      // A session the agent never loaded (started from given messages) replaces whatever is stored.
      const expected = versions.get(sessionId) ?? (await store.load(sessionId))?.version ?? 0;
      const suspensions = state.pending?.slots.flatMap((slot) => (slot.suspension ? [slot.suspension] : [])) ?? [];
      const snapshot = {
        ...(state.prompt !== undefined ? { prompt: state.prompt } : {}),
        messages: state.messages,
        services: state.services ?? {},
        ...(state.pending ? { pending: { suspensions, turn: state.pending } } : {}),
      };
      versions.set(sessionId, await store.save(sessionId, snapshot, expected));
    },
    async append(sessionId, record) {
      const expected = versions.get(sessionId) ?? (await store.load(sessionId))?.version ?? 0;
      versions.set(sessionId, await store.append(sessionId, record, expected));
    },
  };
}

function sessionState(stored: StoredSession): SessionState {
  const state: SessionState = { version: 1, sessionId: stored.sessionId, messages: stored.messages, services: stored.services };
  if (stored.prompt !== undefined) state.prompt = stored.prompt;
  if (stored.pending) state.pending = stored.pending.turn as PendingTurn;
  if (stored.records.length > 0) state.records = stored.records;
  return state;
}
