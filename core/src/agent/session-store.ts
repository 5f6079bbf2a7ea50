import type { SessionState } from "./session-state.js";

/** Where sessions are persisted, by id. The agent saves after every turn and loads on session start. */
export interface SessionStore {
  get(sessionId: string): Promise<SessionState | undefined> | SessionState | undefined;
  save(sessionId: string, state: SessionState): Promise<void> | void;
}

/** Stores known to serialise a state inside `save` before it first awaits: they may be handed the live state. */
const serialisingStores = new WeakSet<SessionStore>();

/** Whether `store` copies what it is given at once (the built-in stores do), so the agent need not copy it first. */
export function serialisesOnSave(store: SessionStore): boolean {
  return serialisingStores.has(store);
}

/** Marks a store whose `save` serialises the state before it first awaits. */
export function serialisingStore(store: SessionStore): SessionStore {
  serialisingStores.add(store);
  return store;
}

/** The default store: copies kept in memory for the life of the process. */
export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, string>();
  return serialisingStore({
    get: (sessionId) => {
      const saved = sessions.get(sessionId);
      return saved === undefined ? undefined : (JSON.parse(saved) as SessionState);
    },
    // Stored as JSON text, so a state that would not survive a real store fails here too.
    save: (sessionId, state) => void sessions.set(sessionId, JSON.stringify(state)),
  });
}
