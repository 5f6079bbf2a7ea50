import { SessionConflictError } from "@weft/sdk";
import type { SessionSnapshot, StoredSession, TurnRecord } from "@weft/sdk";

/** A snapshot as the SQL stores keep it: JSON text, plus the counts `list` shows without parsing it. */
export interface SnapshotColumns {
  snapshot: string;
  messageCount: number;
  pendingCount: number;
}

export function snapshotColumns(snapshot: SessionSnapshot): SnapshotColumns {
  // Only the contract's fields: a caller's extra properties would otherwise round-trip unasked.
  const kept: SessionSnapshot = { messages: snapshot.messages, services: snapshot.services };
  if (snapshot.prompt !== undefined) kept.prompt = snapshot.prompt;
  if (snapshot.pending) kept.pending = snapshot.pending;
  return { snapshot: JSON.stringify(kept), messageCount: snapshot.messages.length, pendingCount: snapshot.pending?.suspensions.length ?? 0 };
}

export function storedSession(sessionId: string, version: number, updatedAt: string, snapshot: string, records: string[]): StoredSession {
  const parsed = JSON.parse(snapshot) as SessionSnapshot;
  return { ...parsed, sessionId, version, updatedAt, records: records.map((record) => JSON.parse(record) as TurnRecord) };
}

/** The conflict for a write whose `expected` version did not match what the store holds. */
export function conflict(sessionId: string, expected: number, actual: number | undefined): SessionConflictError {
  return new SessionConflictError(sessionId, expected, actual);
}

/** The `list` limit, bounded so a typo cannot pull a whole table into memory. */
export function listLimit(limit: number | undefined): number {
  return Math.max(1, Math.min(limit ?? 100, 10_000));
}
