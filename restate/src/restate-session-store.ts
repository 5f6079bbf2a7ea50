import * as clients from "@restatedev/restate-sdk-clients";
import { SessionConflictError, type SessionStore, type SessionSummary, type StoredSession } from "@weft/sdk";
import { adminQuery, sqlText } from "./admin-query.js";
import { DEFAULT_AGENT_OBJECT, type RestateAgentObject, type WriteOutcome } from "./agent-object.js";
import { SESSION_KEY } from "./object-session-store.js";

export interface RestateSessionStoreOptions {
  /** The Restate ingress: reads and writes go through the agent objects' handlers. */
  ingressUrl: string;
  /** The admin API: `list` reads every object's state with SQL. */
  adminUrl: string;
  /** The agent object's name (default `weft-agent`). */
  name?: string;
}

/**
 * The sdk's session store contract over the sessions the Restate runner keeps: each session is its
 * agent object's `StoredSession`, written by that object's handlers under its lock (so a write never
 * lands inside a running turn), its version checked there. For hosts and tools (`weft sessions`) that
 * list, read or delete Restate sessions as they would a SQLite or PostgreSQL store's.
 */
export function restateSessionStore(options: RestateSessionStoreOptions): SessionStore {
  const name = options.name ?? DEFAULT_AGENT_OBJECT;
  const ingress = clients.connect({ url: options.ingressUrl });
  const object = (sessionId: string) => ingress.objectClient<RestateAgentObject>({ name }, sessionId);
  const written = (sessionId: string, expectedVersion: number, outcome: WriteOutcome): number => {
    if (!outcome.ok) throw new SessionConflictError(sessionId, expectedVersion, outcome.actual ?? undefined);
    return outcome.version;
  };
  return {
    load: async (sessionId) => (await object(sessionId).load()) ?? undefined,
    save: async (sessionId, snapshot, expectedVersion) => written(sessionId, expectedVersion, await object(sessionId).save({ snapshot, expectedVersion })),
    append: async (sessionId, record, expectedVersion) => written(sessionId, expectedVersion, await object(sessionId).append({ record, expectedVersion })),
    async list({ pending = false, limit = 100 } = {}) {
      const rows = await adminQuery<{ value_utf8: string }>(options.adminUrl, `SELECT value_utf8 FROM state WHERE service_name = '${sqlText(name)}' AND key = '${SESSION_KEY}'`);
      const summaries: SessionSummary[] = rows.map(({ value_utf8 }) => {
        const stored = JSON.parse(value_utf8) as StoredSession;
        return { sessionId: stored.sessionId, version: stored.version, updatedAt: stored.updatedAt, messages: stored.messages.length, pending: stored.pending?.suspensions.length ?? 0 };
      });
      return summaries
        .filter((summary) => !pending || summary.pending > 0)
        .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
        .slice(0, limit);
    },
    delete: async (sessionId) => object(sessionId).delete(),
    close: async () => {},
  };
}
