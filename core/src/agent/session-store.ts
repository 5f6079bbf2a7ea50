import type { Message, TurnRecord } from "@weft/sdk";
import type { SessionState } from "./session-state.js";

/**
 * Where sessions are persisted, by id. The agent saves after every turn and loads on session start.
 * A store with `append` is written ahead: during a turn the agent appends each step (the input, the
 * model's reply with its tool calls, each tool result as it settles), `get` returns them as `records`
 * until the next `save` folds them in, so a process that stops mid-turn loses nothing that happened.
 */
export interface SessionStore {
  get(sessionId: string): Promise<SessionState | undefined> | SessionState | undefined;
  save(sessionId: string, state: SessionState): Promise<void> | void;
  append?(sessionId: string, record: TurnRecord): Promise<void> | void;
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

/** The in-memory store: `release` drops a session at once. */
export interface MemorySessionStore extends SessionStore {
  release(sessionId: string): void;
}

/**
 * The in-memory store (an agent given no store keeps its subagents' child sessions in one): copies
 * kept in memory, at most `maxSessions` (default 1000) of them; past that
 * the least recently used is dropped, so a process that never closes its sessions stays bounded. It
 * has no `append`: records would die with the process they are meant to outlive, so it keeps each
 * turn when the turn ends.
 */
export function memorySessionStore({ maxSessions = 1000 }: { maxSessions?: number } = {}): MemorySessionStore {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const sessions = new Map<string, StoredText>();
  const store: MemorySessionStore = {
    get: (sessionId) => {
      const saved = sessions.get(sessionId);
      if (saved === undefined) return undefined;
      sessions.delete(sessionId);
      sessions.set(sessionId, saved);
      return { ...(JSON.parse(saved.rest) as Omit<SessionState, "messages">), messages: saved.messages.map((text) => JSON.parse(text) as Message) };
    },
    // Stored as JSON text, so a state that would not survive a real store fails here too.
    save: (sessionId, state) => {
      const { messages, ...rest } = state;
      const text = { rest: JSON.stringify(rest), messages: messages.map(messageJson) };
      sessions.delete(sessionId);
      sessions.set(sessionId, text);
      for (const oldest of sessions.keys()) {
        if (sessions.size <= maxSessions) break;
        sessions.delete(oldest);
      }
    },
    release: (sessionId) => void sessions.delete(sessionId),
  };
  serialisingStore(store);
  return store;
}

/** A saved session: each message's JSON on its own, the rest of the state as one text. */
interface StoredText {
  rest: string;
  messages: string[];
}

/**
 * The JSON of frozen messages, which cannot change (frozen-messages.ts), by identity: a save writes
 * only what the turn added, not the whole transcript again. Shared by every store of the process.
 */
const messageTexts = new WeakMap<Message, string>();

function messageJson(message: Message): string {
  const known = messageTexts.get(message);
  if (known !== undefined) return known;
  const text = JSON.stringify(message);
  if (Object.isFrozen(message)) messageTexts.set(message, text);
  return text;
}
