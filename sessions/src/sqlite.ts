export { sqliteSessionStore, migrateSqlite, type SqliteSessionStoreOptions } from "./sqlite-session-store.js";
export { SQLITE_MIGRATIONS } from "./sqlite-migrations.js";
