export { memorySessionStore } from "./memory-session-store.js";
export { openSessionStore, type OpenedSessionStore, type SessionStoreConfig } from "./session-store-config.js";
export type { MigratedSessionStore } from "./migrated-session-store.js";
