import type { SessionStore as VersionedStore, StoredSession, ToolMessage, TurnRecord } from "@weft/sdk";
import type { TodoItem } from "../builtins/todo-list.js";
import type { PendingTurn, SessionState, TokenBaseline } from "./session-state.js";
import type { SessionStore } from "./session-store.js";

/** The session services whose state the agent keeps in a snapshot's `services`, by name. */
const TODOS = "todos";
const TOKEN_BASELINE = "agent.tokenBaseline";

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
      const services: Record<string, unknown> = { [TODOS]: state.todos };
      if (state.tokenBaseline) services[TOKEN_BASELINE] = state.tokenBaseline;
      const suspensions = state.pending?.slots.flatMap((slot) => (slot.suspension ? [slot.suspension] : [])) ?? [];
      const snapshot = {
        ...(state.prompt !== undefined ? { prompt: state.prompt } : {}),
        messages: state.messages,
        services,
        ...(state.pending ? { pending: { suspensions, turn: state.pending } } : {}),
      };
      versions.set(sessionId, await store.save(sessionId, snapshot, expected));
    },
  };
}

function sessionState(stored: StoredSession): SessionState {
  const state: SessionState = {
    version: 1,
    sessionId: stored.sessionId,
    messages: [...stored.messages, ...settledRecords(stored.records)],
    todos: (stored.services[TODOS] as TodoItem[] | undefined) ?? [],
  };
  if (stored.prompt !== undefined) state.prompt = stored.prompt;
  // A turn cut short after write-ahead records has moved past the pending round the snapshot holds.
  if (stored.pending && stored.records.length === 0) state.pending = stored.pending.turn as PendingTurn;
  const baseline = stored.services[TOKEN_BASELINE] as TokenBaseline | undefined;
  if (baseline) state.tokenBaseline = baseline;
  return state;
}

/**
 * The messages of a turn that stopped (a crash) after its write-ahead records: every call the model
 * made gets an answer, so the transcript stays one a provider accepts. A call with no recorded result
 * may or may not have run; the model is told so rather than left to guess.
 */
export function settledRecords(records: TurnRecord[]): (TurnRecord["message"])[] {
  const messages: TurnRecord["message"][] = [];
  let open = new Map<string, string>();
  const closeRound = () => {
    for (const [id, name] of open) messages.push(interrupted(id, name));
    open = new Map();
  };
  for (const record of records) {
    if (record.kind === "assistant") {
      closeRound();
      messages.push(record.message);
      for (const call of record.message.toolCalls ?? []) open.set(call.id, call.name);
    } else if (open.delete(record.message.toolCallId)) {
      messages.push(record.message);
    }
  }
  closeRound();
  return messages;
}

function interrupted(toolCallId: string, toolName: string): ToolMessage {
  return {
    role: "tool",
    toolCallId,
    toolName,
    content: `${toolName} was interrupted before its result was recorded (the process stopped); it may or may not have taken effect, so check before calling it again`,
    isError: true,
  };
}
