import { errorMessage, keepsSessionState } from "@weft/sdk";
import type { Logger, SessionStateService, StateSession } from "@weft/sdk";
import type { ServiceRegistry } from "./service-registry.js";

/**
 * What a session's services keep with it (see `SessionStateService` in the sdk): each one's value at a
 * save, handed back at a restore. The record as last restored or saved stays here, so a name no service
 * claims now (its plugin is disabled for this run) is saved again as it was, and so is the last value
 * of a service whose save fails, or a value a service could not restore until it saves one of its own.
 */
export class SessionStateKeeper {
  #kept: Record<string, unknown> = {};
  /** Services that refused their stored value (another version wrote it?): it is not theirs to erase. */
  readonly #unread = new Set<string>();

  constructor(
    private readonly services: ServiceRegistry,
    private readonly session: StateSession,
    private readonly logger: Logger,
  ) {}

  save(): Record<string, unknown> {
    const saved = { ...this.#kept };
    for (const [name, service] of this.#keepers()) {
      try {
        const value = service.saveSessionState(this.session);
        if (value !== undefined) {
          saved[name] = value;
          this.#unread.delete(name);
        } else if (!this.#unread.has(name)) delete saved[name];
      } catch (error) {
        this.logger.warn(`the "${name}" service could not save the state of session ${this.session.id} (${errorMessage(error)}); keeping what it saved before`);
      }
    }
    // Sorted, so the same state is the same bytes in every store.
    this.#kept = Object.fromEntries(Object.entries(saved).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    return { ...this.#kept };
  }

  restore(services: Record<string, unknown>): void {
    this.#kept = { ...services };
    this.#unread.clear();
    for (const [name, service] of this.#keepers()) {
      const restored = this.#tell(name, "restore", () => {
        if (Object.hasOwn(services, name)) service.restoreSessionState(this.session, services[name]);
        else service.forgetSessionState(this.session);
      });
      if (!restored) this.#unread.add(name);
    }
  }

  /** The session closed: every service drops what it holds for it (its state was saved). */
  forget(): void {
    for (const [name, service] of this.#keepers()) this.#tell(name, "forget", () => service.forgetSessionState(this.session));
  }

  /** A service that fails to take its state back is logged, and the session goes on; false then. */
  #tell(name: string, what: string, call: () => void): boolean {
    try {
      call();
      return true;
    } catch (error) {
      this.logger.warn(`the "${name}" service could not ${what} the state of session ${this.session.id}: ${errorMessage(error)}`);
      return false;
    }
  }

  *#keepers(): Generator<[string, SessionStateService]> {
    for (const name of this.services.names()) {
      const service = this.services.get(name);
      if (keepsSessionState(service)) yield [name, service];
    }
  }
}
