/**
 * The PostgreSQL schema, one entry per version, applied in order and never edited once released: a
 * change is a new entry. `weft_schema` records which have run. The snapshot is `text`, not `jsonb`:
 * jsonb refuses the `\u0000` escape a transcript may carry, and the store never queries inside it.
 */
export const POSTGRES_MIGRATIONS: readonly string[] = [
  `CREATE TABLE weft_sessions (
     session_id text PRIMARY KEY,
     version integer NOT NULL,
     snapshot text NOT NULL,
     message_count integer NOT NULL,
     pending_count integer NOT NULL,
     updated_at timestamptz NOT NULL
   );
   CREATE INDEX weft_sessions_updated ON weft_sessions (updated_at DESC);
   CREATE TABLE weft_turn_records (
     session_id text NOT NULL REFERENCES weft_sessions (session_id) ON DELETE CASCADE,
     seq integer NOT NULL,
     record text NOT NULL,
     PRIMARY KEY (session_id, seq)
   );`,
];
