import type { KernelSession } from "@weft/sdk";
import type { TodoItem } from "@weft/core";

/** The state of a session's services, by service name, as the stored session's `services` keeps it. */
export type ServiceStates = Record<string, unknown>;

/** A kernel session that collects and restores its services' state (the sdk's session-state contract). */
interface StateKeeping {
  saveState(): ServiceStates;
  restoreState(services: ServiceStates): void;
}

function keepsState(session: KernelSession): session is KernelSession & StateKeeping {
  const candidate = session as Partial<StateKeeping>;
  return typeof candidate.saveState === "function" && typeof candidate.restoreState === "function";
}

/**
 * What a tool call leaves in the session's services (a todo list, a peer's context id) has to be
 * journaled with its result: a replayed step does not run the tool again, so without it a worker that
 * resumes the turn would save the session as it was before the call. Kernel sessions that keep their
 * services' state hand all of it over; before that contract, the todo list was the one such state.
 */
export function sessionServices(session: KernelSession): { save(): ServiceStates; restore(states: ServiceStates): void } {
  if (keepsState(session)) return { save: () => session.saveState(), restore: (states) => session.restoreState(states) };
  return {
    save: () => (session.has("todos") ? { todos: session.need("todos").get() } : {}),
    restore(states) {
      if (states.todos !== undefined && session.has("todos")) session.need("todos").set(states.todos as TodoItem[]);
    },
  };
}
