/** The session a `SessionStateService` is asked about. */
export interface StateSession {
  readonly id: string;
  /** The agent running the session, when it named itself. */
  readonly agent?: string;
}

/**
 * A service that keeps part of its state with each session, so the state survives a resume in another
 * process in whatever store the session uses. Provide it like any service, on the kernel
 * (`api.provide(name, service)`, one object for every session, keyed by `session.id`) or on one
 * session (`session.provide`); the service's name is its key in the stored session's `services`.
 *
 * The session's runner (the agent) calls `saveSessionState` at every save and `restoreSessionState`
 * when the session starts, before its first model or tool call. Names the stored session holds that
 * no service claims (a plugin disabled for one run) are kept as they are on the next save.
 */
export interface SessionStateService {
  /**
   * This service's state in `session`, as a plain JSON value the service will not change afterwards;
   * undefined keeps nothing (its entry is removed from the stored session).
   */
  saveSessionState(session: StateSession): unknown;
  /**
   * Puts back what `saveSessionState` returned, possibly in another process or by another version of
   * the service: check its shape. Replaces whatever the service held for the session.
   */
  restoreSessionState(session: StateSession, value: unknown): void;
  /** Drops what the service holds for the session: it closed (its state is saved), or it was reset. */
  forgetSessionState(session: StateSession): void;
}

/** Whether a service keeps session state (implements `SessionStateService`). */
export function keepsSessionState(service: unknown): service is SessionStateService {
  if (typeof service !== "object" || service === null) return false;
  const candidate = service as Partial<Record<keyof SessionStateService, unknown>>;
  return (
    typeof candidate.saveSessionState === "function" &&
    typeof candidate.restoreSessionState === "function" &&
    typeof candidate.forgetSessionState === "function"
  );
}
