import type { ListSessionsOptions, SessionSnapshot, SessionStore, SessionSummary, StoredSession, TurnRecord } from "@weft/sdk";
import { conflict, listLimit, snapshotColumns, storedSession, type SnapshotColumns } from "./session-row.js";

interface Entry extends SnapshotColumns {
  version: number;
  updatedAt: string;
  records: string[];
}

/**
 * The contract's reference store: sessions in a map for the life of the process. Kept as JSON text,
 * so a state that would not survive a database fails here too, and every load is a copy.
 */
export function memorySessionStore(): SessionStore {
  const sessions = new Map<string, Entry>();

  /** The entry a write based on `expected` may replace; throws the conflict otherwise. */
  const current = (sessionId: string, expected: number): Entry | undefined => {
    const entry = sessions.get(sessionId);
    if ((entry?.version ?? 0) !== expected) throw conflict(sessionId, expected, entry?.version);
    return entry;
  };

  return {
    async load(sessionId: string): Promise<StoredSession | undefined> {
      const entry = sessions.get(sessionId);
      return entry && storedSession(sessionId, entry.version, entry.updatedAt, entry.snapshot, entry.records);
    },
    async save(sessionId: string, snapshot: SessionSnapshot, expectedVersion: number): Promise<number> {
      current(sessionId, expectedVersion);
      const version = expectedVersion + 1;
      sessions.set(sessionId, { ...snapshotColumns(snapshot), version, updatedAt: new Date().toISOString(), records: [] });
      return version;
    },
    async append(sessionId: string, record: TurnRecord, expectedVersion: number): Promise<number> {
      const entry = current(sessionId, expectedVersion);
      if (!entry) throw conflict(sessionId, expectedVersion, undefined);
      entry.records.push(JSON.stringify(record));
      entry.version = expectedVersion + 1;
      entry.updatedAt = new Date().toISOString();
      return entry.version;
    },
    async list(options: ListSessionsOptions = {}): Promise<SessionSummary[]> {
      return [...sessions]
        .filter(([, entry]) => !options.pending || entry.pendingCount > 0)
        .sort(([a, left], [b, right]) => right.updatedAt.localeCompare(left.updatedAt) || a.localeCompare(b))
        .slice(0, listLimit(options.limit))
        .map(([sessionId, entry]) => ({ sessionId, version: entry.version, updatedAt: entry.updatedAt, messages: entry.messageCount, pending: entry.pendingCount }));
    },
    async delete(sessionId: string): Promise<boolean> {
      return sessions.delete(sessionId);
    },
    async close(): Promise<void> {},
  };
}
