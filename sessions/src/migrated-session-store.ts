import type { SessionStore } from "@weft/sdk";

/** A store on a database with a schema: `migrate` resolves to how many migrations this handle applied on first use. */
export interface MigratedSessionStore extends SessionStore {
  migrate(): Promise<number>;
}
