import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
import type { MigratedSessionStore } from "./migrated-session-store.js";
import type { ListSessionsOptions, SessionSnapshot, SessionSummary, StoredSession, TurnRecord } from "@weft/sdk";
import { assertKnownSchema } from "./schema-version.js";
import { conflict, listLimit, snapshotColumns, storedSession } from "./session-row.js";
import { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";

export interface SqliteSessionStoreOptions {
  /** The database file, created (with its folder) on first use. */
  file: string;
  /** How long a write waits for another process's lock before failing (default 5000 ms). */
  busyTimeoutMs?: number;
}

interface SessionRow {
  version: number;
  snapshot: string;
  updated_at: string;
}

interface SummaryRow {
  session_id: string;
  version: number;
  updated_at: string;
  message_count: number;
  pending_count: number;
}

/**
 * Sessions in one SQLite file in WAL mode: readers never block the writer, and several processes on
 * one machine may share the file (each write is one short IMMEDIATE transaction, and the version
 * check inside it is what makes a stale writer fail). Synchronous FULL: a committed write survives a
 * power loss, not only a crash.
 */
export function sqliteSessionStore(options: SqliteSessionStoreOptions): MigratedSessionStore {
  mkdirSync(dirname(options.file), { recursive: true });
  const db = new Database(options.file);
  db.pragma(`busy_timeout = ${Math.trunc(options.busyTimeoutMs ?? 5000)}`);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  const migrated = migrateSqlite(db);

  const selectSession = db.prepare<[string], SessionRow>("SELECT version, snapshot, updated_at FROM weft_sessions WHERE session_id = ?");
  const selectVersion = db.prepare<[string], { version: number }>("SELECT version FROM weft_sessions WHERE session_id = ?");
  const selectRecords = db.prepare<[string], { record: string }>("SELECT record FROM weft_turn_records WHERE session_id = ? ORDER BY seq");
  const insertSession = db.prepare(
    "INSERT INTO weft_sessions (session_id, version, snapshot, message_count, pending_count, updated_at) VALUES (?, 1, ?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING",
  );
  const updateSession = db.prepare(
    "UPDATE weft_sessions SET version = version + 1, snapshot = ?, message_count = ?, pending_count = ?, updated_at = ? WHERE session_id = ? AND version = ?",
  );
  const bumpVersion = db.prepare("UPDATE weft_sessions SET version = version + 1, updated_at = ? WHERE session_id = ? AND version = ?");
  const deleteRecords = db.prepare("DELETE FROM weft_turn_records WHERE session_id = ?");
  const insertRecord = db.prepare("INSERT INTO weft_turn_records (session_id, seq, record) VALUES (?, ?, ?)");
  const deleteSession = db.prepare("DELETE FROM weft_sessions WHERE session_id = ?");

  const versionOf = (sessionId: string) => selectVersion.get(sessionId)?.version;

  const load = db.transaction((sessionId: string): StoredSession | undefined => {
    const row = selectSession.get(sessionId);
    if (!row) return undefined;
    const records = selectRecords.all(sessionId).map((record) => record.record);
    return storedSession(sessionId, row.version, row.updated_at, row.snapshot, records);
  });

  const save = db.transaction((sessionId: string, snapshot: SessionSnapshot, expected: number): number => {
    const columns = snapshotColumns(snapshot);
    const now = new Date().toISOString();
    const written =
      expected === 0
        ? insertSession.run(sessionId, columns.snapshot, columns.messageCount, columns.pendingCount, now)
        : updateSession.run(columns.snapshot, columns.messageCount, columns.pendingCount, now, sessionId, expected);
    if (written.changes !== 1) throw conflict(sessionId, expected, versionOf(sessionId));
    deleteRecords.run(sessionId);
    return expected + 1;
  });

  const append = db.transaction((sessionId: string, record: TurnRecord, expected: number): number => {
    if (bumpVersion.run(new Date().toISOString(), sessionId, expected).changes !== 1) throw conflict(sessionId, expected, versionOf(sessionId));
    insertRecord.run(sessionId, expected + 1, JSON.stringify(record));
    return expected + 1;
  });

  return {
    async load(sessionId) {
      return load(sessionId);
    },
    async save(sessionId, snapshot, expectedVersion) {
      return save.immediate(sessionId, snapshot, expectedVersion);
    },
    async append(sessionId, record, expectedVersion) {
      return append.immediate(sessionId, record, expectedVersion);
    },
    async list(listOptions: ListSessionsOptions = {}): Promise<SessionSummary[]> {
      const where = listOptions.pending ? "WHERE pending_count > 0" : "";
      const rows = db
        .prepare<[number], SummaryRow>(
          `SELECT session_id, version, updated_at, message_count, pending_count FROM weft_sessions ${where} ORDER BY updated_at DESC, session_id LIMIT ?`,
        )
        .all(listLimit(listOptions.limit));
      return rows.map((row) => ({ sessionId: row.session_id, version: row.version, updatedAt: row.updated_at, messages: row.message_count, pending: row.pending_count }));
    },
    async delete(sessionId) {
      return deleteSession.run(sessionId).changes === 1;
    },
    async migrate() {
      return migrated;
    },
    async close() {
      db.close();
    },
  };
}

/**
 * Brings the file's schema up to date. The IMMEDIATE transaction holds the write lock, so processes
 * opening a new file together apply each migration once.
 */
export function migrateSqlite(db: Database.Database): number {
  return db.transaction(() => {
    db.exec("CREATE TABLE IF NOT EXISTS weft_schema (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)");
    const applied = db.prepare<[], { version: number | null }>("SELECT max(version) AS version FROM weft_schema").get()?.version ?? 0;
    assertKnownSchema(db.name, applied, SQLITE_MIGRATIONS.length);
    const record = db.prepare("INSERT INTO weft_schema (version, applied_at) VALUES (?, ?)");
    for (const [index, sql] of SQLITE_MIGRATIONS.entries()) {
      if (index + 1 <= applied) continue;
      db.exec(sql);
      record.run(index + 1, new Date().toISOString());
    }
    return Math.max(0, SQLITE_MIGRATIONS.length - applied);
  }).immediate();
}
