/**
 * The SQLite schema, one entry per version, applied in order and never edited once released: a
 * change is a new entry. `weft_schema` records which have run.
 */
export const SQLITE_MIGRATIONS: readonly string[] = [
  `CREATE TABLE weft_sessions (
     session_id TEXT PRIMARY KEY,
     version INTEGER NOT NULL,
     snapshot TEXT NOT NULL,
     message_count INTEGER NOT NULL,
     pending_count INTEGER NOT NULL,
     updated_at TEXT NOT NULL
   );
   CREATE INDEX weft_sessions_updated ON weft_sessions (updated_at DESC);
   CREATE TABLE weft_turn_records (
     session_id TEXT NOT NULL REFERENCES weft_sessions (session_id) ON DELETE CASCADE,
     seq INTEGER NOT NULL,
     record TEXT NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
];
