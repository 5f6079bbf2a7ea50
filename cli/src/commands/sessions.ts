import path from "node:path";
import { findConfigFile, readProjectConfig } from "@weft/core";
import { openSessionStore, type SessionStoreConfig } from "@weft/sessions";
import { UsageError, type Command, type CommandIO } from "../command.js";
import { parseFlags } from "../project-options.js";
import { formatTable } from "../table.js";

/** Overrides the config's `sessions.url`, so a database password need not sit in the project file. */
const URL_VARIABLE = "WEFT_SESSIONS_URL";

export const sessionsCommand: Command = {
  name: "sessions",
  summary: "migrate, list, show or delete the sessions in the store the project config names",
  usage: "weft sessions migrate | list [--pending] [--limit <n>] [--json] | show <id> | delete <id>   [--config <file>]",
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, pending: { type: "boolean" }, limit: { type: "string" } });
    const [action, sessionId] = positionals;
    if (!action || !["migrate", "list", "show", "delete"].includes(action)) throw new UsageError('say "migrate", "list", "show <id>" or "delete <id>"');
    if ((action === "show" || action === "delete") && !sessionId) throw new UsageError(`name the session to ${action}`);
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && !(Number.isInteger(limit) && limit > 0)) throw new UsageError(`--limit must be a whole number above 0, not ${values.limit}`);
    const config = await storeConfig(io, values.config);
    const { store, migrated } = await openSessionStore(config);
    try {
      if (action === "migrate") {
        io.stdout.write(`${config.store}: ${migrated === 0 ? "the schema is up to date" : `applied ${migrated} migration${migrated === 1 ? "" : "s"}`}\n`);
        return 0;
      }
      if (action === "list") {
        const sessions = await store.list({ pending: values.pending === true, ...(limit ? { limit } : {}) });
        if (values.json) {
          io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
          return 0;
        }
        const rows = sessions.map((session) => [session.sessionId, String(session.version), session.updatedAt, String(session.messages), String(session.pending)]);
        io.stdout.write(`${formatTable([["SESSION", "VERSION", "UPDATED", "MESSAGES", "PENDING"], ...rows])}\n${sessions.length} sessions\n`);
        return 0;
      }
      const id = sessionId ?? "";
      if (action === "show") {
        const session = await store.load(id);
        if (!session) return missing(io, id);
        io.stdout.write(`${JSON.stringify(session, null, 2)}\n`);
        return 0;
      }
      if (!(await store.delete(id))) return missing(io, id);
      io.stdout.write(`deleted ${id}\n`);
      return 0;
    } finally {
      await store.close();
    }
  },
};

/** The project's `sessions:` section, a SQLite file resolved against the config's folder. */
async function storeConfig(io: CommandIO, explicit: string | undefined): Promise<SessionStoreConfig> {
  const file = findConfigFile(io.cwd, explicit);
  const sessions = (await readProjectConfig(file)).sessions;
  if (!sessions) throw new UsageError(`${file} names no session store; add  sessions: { store: sqlite, url: ./sessions.db }`);
  const url = io.env[URL_VARIABLE] || sessions.url;
  if (sessions.store === "sqlite" && url) return { store: "sqlite", url: path.resolve(path.dirname(file), url) };
  return url ? { store: sessions.store, url } : { store: sessions.store };
}

function missing(io: CommandIO, sessionId: string): number {
  io.stderr.write(`no session "${sessionId}" in the store\n`);
  return 1;
}
