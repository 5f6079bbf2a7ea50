import path from "node:path";
import { findConfigFile, readProjectConfig } from "@weft/core/project";
import { openSessionStore, type SessionStoreConfig } from "@weft/sessions";
import { UsageError, defineCommand, type CommandIO } from "../command.js";
import { CONFIG_FLAG, JSON_FLAG } from "../common-flags.js";
import { formatTable } from "../table.js";

/** Overrides the config's `sessions.url`, so a database password need not sit in the project file. */
const URL_VARIABLE = "WEFT_SESSIONS_URL";

export default defineCommand({
  usage: "sessions migrate | list [--pending] [--limit <n>] | show <id> | delete <id> [options]",
  flags: {
    ...CONFIG_FLAG,
    ...JSON_FLAG,
    pending: { type: "boolean", description: "list: only sessions waiting for an answer" },
    limit: { type: "string", value: "<n>", description: "list: at most this many, newest first" },
  },
  examples: ["weft sessions migrate", "weft sessions list --pending", "weft sessions show 3f2a…", "weft sessions delete 3f2a…"],
  async run({ values, positionals }, io) {
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
});

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
