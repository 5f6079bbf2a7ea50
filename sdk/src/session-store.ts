import type { AssistantMessage, Message, ToolMessage, UserMessage } from "./message.js";
import type { Suspension } from "./tool.js";

/**
 * The session store contract: where a session lives between turns and between processes. Every store
 * (memory, SQLite, PostgreSQL) passes the same conformance suite (`runSessionStoreConformance` in the
 * test kit).
 *
 * Concurrency is optimistic, per session: every write names the version it was based on and gets the
 * next one back. A write based on a version that is no longer current fails with SessionConflictError
 * and changes nothing, so two workers resuming the same session never interleave their writes: one
 * wins, the other reloads or gives up.
 */
export interface SessionStore {
  /** The session as last saved, with the write-ahead records appended since; undefined when unknown. */
  load(sessionId: string): Promise<StoredSession | undefined>;
  /**
   * Replaces the snapshot and drops the write-ahead records (the snapshot has folded them in).
   * `expectedVersion` 0 creates the session. Resolves to the new version.
   */
  save(sessionId: string, snapshot: SessionSnapshot, expectedVersion: number): Promise<number>;
  /** Appends one write-ahead record of the running turn. Resolves to the new version. */
  append(sessionId: string, record: TurnRecord, expectedVersion: number): Promise<number>;
  /** Sessions by most recent write first. */
  list(options?: ListSessionsOptions): Promise<SessionSummary[]>;
  /** Removes a session and its records; false when there was none. */
  delete(sessionId: string): Promise<boolean>;
  /** Releases connections and file handles. */
  close(): Promise<void>;
}

/** What a session is, as a plain JSON value a store keeps. */
export interface SessionSnapshot {
  /** The session's own system prompt, before the kernel's prompt sections. */
  prompt?: string;
  /** The transcript without the system message. */
  messages: Message[];
  /** A turn stopped at suspensions the host must answer; absent when the session is idle. */
  pending?: PendingSuspensions;
  /** The state of the session's services (todos, A2A context ids, ...), one JSON value per service name. */
  services: Record<string, unknown>;
}

/** What a pending turn waits for, and what the agent needs to continue it once answered. */
export interface PendingSuspensions {
  /** The requests the host must answer, in call order; stores index them for listing. */
  suspensions: Suspension[];
  /** The agent's own resume state (its round's slots, counters, guard); opaque to the store. */
  turn: unknown;
}

/** A session as loaded: the snapshot, its version, and the records of a turn that did not save. */
export interface StoredSession extends SessionSnapshot {
  sessionId: string;
  /** The version to name in the next write. */
  version: number;
  /** ISO 8601 time of the last write. */
  updatedAt: string;
  /** The write-ahead records appended since the last save, in append order. */
  records: TurnRecord[];
}

/**
 * One step of a running turn, written before the next begins: the input that started it, the model's
 * reply with its tool calls, then each tool result as it settles. After a crash, a loaded session's
 * records tell which calls already ran, so none runs twice.
 */
export type TurnRecord =
  | { kind: "user"; turnId: string; message: UserMessage }
  | { kind: "assistant"; turnId: string; message: AssistantMessage }
  | { kind: "tool-result"; turnId: string; message: ToolMessage };

export interface ListSessionsOptions {
  /** Only sessions waiting for a host answer. */
  pending?: boolean;
  /** At most this many (default 100). */
  limit?: number;
}

export interface SessionSummary {
  sessionId: string;
  version: number;
  updatedAt: string;
  messages: number;
  /** How many suspensions wait for an answer. */
  pending: number;
}
