import { WeftError, errorMessage, type SessionStore } from "@weft/sdk";

/** The `sessions:` section of a project config. */
export interface SessionStoreConfig {
  store: "memory" | "sqlite" | "postgres";
  /** sqlite: the database file; postgres: the connection string. */
  url?: string;
}

export interface OpenedSessionStore {
  store: SessionStore;
  /** How many schema migrations opening it applied (0 when it was up to date). */
  migrated: number;
}

/**
 * Opens the store a config names, running its migrations. Each driver is imported only when its
 * store is chosen, so a SQLite user needs no `pg` installed and the reverse.
 */
export async function openSessionStore(config: SessionStoreConfig): Promise<OpenedSessionStore> {
  if (config.store === "memory") {
    const { memorySessionStore } = await import("./memory-session-store.js");
    return { store: memorySessionStore(), migrated: 0 };
  }
  const url = config.url;
  if (!url) throw new WeftError("CONFIG_INVALID", `sessions.url is required for the ${config.store} store (${config.store === "sqlite" ? "a database file" : "a postgres:// connection string"})`);
  if (config.store === "sqlite") {
    const { sqliteSessionStore } = await driver("better-sqlite3", () => import("./sqlite-session-store.js"));
    const store = sqliteSessionStore({ file: url });
    return { store, migrated: await store.migrate() };
  }
  if (config.store === "postgres") {
    const { postgresSessionStore } = await driver("pg", () => import("./postgres-session-store.js"));
    const store = postgresSessionStore({ url });
    try {
      return { store, migrated: await store.migrate() };
    } catch (error) {
      await store.close();
      throw error;
    }
  }
  throw new WeftError("CONFIG_INVALID", `sessions.store must be memory, sqlite or postgres, not ${JSON.stringify(config.store)}`);
}

/** Imports a store's module, turning a missing driver into an error that says what to install. */
async function driver<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && errorMessage(error).includes(`'${name}'`)) {
      throw new WeftError("CONFIG_INVALID", `the ${name === "pg" ? "postgres" : "sqlite"} session store needs the ${name} package: npm install ${name}`, { cause: error });
    }
    throw error;
  }
}
