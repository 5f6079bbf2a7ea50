import pg from "pg";
import type { MigratedSessionStore } from "./migrated-session-store.js";
import type { ListSessionsOptions, SessionSnapshot, SessionSummary, StoredSession, TurnRecord } from "@weft/sdk";
import { POSTGRES_MIGRATIONS } from "./postgres-migrations.js";
import { assertKnownSchema } from "./schema-version.js";
import { conflict, listLimit, snapshotColumns, storedSession } from "./session-row.js";

export interface PostgresSessionStoreOptions {
  /** A connection string, `postgres://user@host:port/db`; or give `pool`. */
  url?: string;
  /** A pool the application owns (the store then leaves it open on close). */
  pool?: pg.Pool;
  /** Connections the store's own pool opens at most (default 10). */
  maxConnections?: number;
}

/** Any constant: the advisory lock that serialises migrations across processes and machines. */
const MIGRATION_LOCK = 7_420_020;

/**
 * Sessions in PostgreSQL, for workers on several machines. Each write is one short transaction whose
 * `WHERE version = expected` is re-checked after a competing transaction commits (row locks, READ
 * COMMITTED), so of two racing writers exactly one updates the row and the other conflicts.
 * Migrations run on first use.
 */
export function postgresSessionStore(options: PostgresSessionStoreOptions): MigratedSessionStore {
  const pool = options.pool ?? new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
  let migrated: Promise<number> | undefined;
  const ready = () => (migrated ??= migratePostgres(pool));

  async function transaction<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    await ready();
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const result = await body(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  const versionOf = async (client: pg.PoolClient, sessionId: string) =>
    (await client.query<{ version: number }>("SELECT version FROM weft_sessions WHERE session_id = $1", [sessionId])).rows[0]?.version;

  return {
    async load(sessionId): Promise<StoredSession | undefined> {
      await ready();
      // One statement, so the snapshot and its records come from one consistent view.
      const { rows } = await pool.query<{ version: number; snapshot: string; updated_at: Date; records: string[] | null }>(
        `SELECT version, snapshot, updated_at,
                (SELECT array_agg(record ORDER BY seq) FROM weft_turn_records r WHERE r.session_id = s.session_id) AS records
           FROM weft_sessions s WHERE session_id = $1`,
        [sessionId],
      );
      const row = rows[0];
      return row && storedSession(sessionId, row.version, row.updated_at.toISOString(), row.snapshot, row.records ?? []);
    },
    save(sessionId, snapshot: SessionSnapshot, expectedVersion) {
      return transaction(async (client) => {
        const columns = snapshotColumns(snapshot);
        const written =
          expectedVersion === 0
            ? await client.query(
                `INSERT INTO weft_sessions (session_id, version, snapshot, message_count, pending_count, updated_at)
                 VALUES ($1, 1, $2, $3, $4, now()) ON CONFLICT (session_id) DO NOTHING`,
                [sessionId, columns.snapshot, columns.messageCount, columns.pendingCount],
              )
            : await client.query(
                `UPDATE weft_sessions SET version = version + 1, snapshot = $2, message_count = $3, pending_count = $4, updated_at = now()
                  WHERE session_id = $1 AND version = $5`,
                [sessionId, columns.snapshot, columns.messageCount, columns.pendingCount, expectedVersion],
              );
        if (written.rowCount !== 1) throw conflict(sessionId, expectedVersion, await versionOf(client, sessionId));
        await client.query("DELETE FROM weft_turn_records WHERE session_id = $1", [sessionId]);
        return expectedVersion + 1;
      });
    },
    append(sessionId, record: TurnRecord, expectedVersion) {
      return transaction(async (client) => {
        const bumped = await client.query("UPDATE weft_sessions SET version = version + 1, updated_at = now() WHERE session_id = $1 AND version = $2", [
          sessionId,
          expectedVersion,
        ]);
        if (bumped.rowCount !== 1) throw conflict(sessionId, expectedVersion, await versionOf(client, sessionId));
        await client.query("INSERT INTO weft_turn_records (session_id, seq, record) VALUES ($1, $2, $3)", [sessionId, expectedVersion + 1, JSON.stringify(record)]);
        return expectedVersion + 1;
      });
    },
    async list(listOptions: ListSessionsOptions = {}): Promise<SessionSummary[]> {
      await ready();
      const where = listOptions.pending ? "WHERE pending_count > 0" : "";
      const { rows } = await pool.query<{ session_id: string; version: number; updated_at: Date; message_count: number; pending_count: number }>(
        `SELECT session_id, version, updated_at, message_count, pending_count FROM weft_sessions ${where} ORDER BY updated_at DESC, session_id LIMIT $1`,
        [listLimit(listOptions.limit)],
      );
      return rows.map((row) => ({
        sessionId: row.session_id,
        version: row.version,
        updatedAt: row.updated_at.toISOString(),
        messages: row.message_count,
        pending: row.pending_count,
      }));
    },
    async delete(sessionId) {
      await ready();
      return (await pool.query("DELETE FROM weft_sessions WHERE session_id = $1", [sessionId])).rowCount === 1;
    },
    migrate: ready,
    async close() {
      // A migration still running holds a client; let it finish before the pool goes.
      await migrated?.catch(() => undefined);
      if (!options.pool) await pool.end();
    },
  };
}

/** Brings the database's schema up to date; resolves to how many migrations it applied. */
export async function migratePostgres(pool: pg.Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query("CREATE TABLE IF NOT EXISTS weft_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)");
    const applied = (await client.query<{ version: number | null }>("SELECT max(version) AS version FROM weft_schema")).rows[0]?.version ?? 0;
    assertKnownSchema("postgres", applied, POSTGRES_MIGRATIONS.length);
    for (const [index, sql] of POSTGRES_MIGRATIONS.entries()) {
      if (index + 1 <= applied) continue;
      await client.query(sql);
      await client.query("INSERT INTO weft_schema (version, applied_at) VALUES ($1, now())", [index + 1]);
    }
    await client.query("COMMIT");
    return POSTGRES_MIGRATIONS.length - applied;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
