export { postgresSessionStore, migratePostgres, type PostgresSessionStoreOptions } from "./postgres-session-store.js";
export { POSTGRES_MIGRATIONS } from "./postgres-migrations.js";
