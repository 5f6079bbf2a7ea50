import type { KernelSession, SessionStateService } from "@weft/sdk";
import type { TodoItem, TodoList } from "../builtins/todo-list.js";
import type { Session } from "./session.js";
import type { TokenBaseline } from "./session-state.js";
import { noUsage, type SessionUsage } from "./turn-limits.js";

/** The agent's own state services, under the names a stored session keeps them by. */
export const TOKEN_BASELINE = "agent.tokenBaseline";
export const USAGE = "agent.usage";

declare module "@weft/sdk" {
  interface WeftServices {
    /** The last prompt size the provider reported, for when to compact. */
    "agent.tokenBaseline": SessionStateService;
    /** What the session's turns have used, for its limits. */
    "agent.usage": SessionStateService;
  }
}

/**
 * Gives a session the agent's services that keep state with it: the todo list, the token baseline
 * and what the session has used. Each is a `SessionStateService` like any plugin's, so every store
 * keeps them the same way.
 */
export function provideSessionServices(scope: KernelSession, session: Session): void {
  const todos: TodoList & SessionStateService = {
    get: () => structuredClone(session.todos),
    set: (items) => {
      session.todos = structuredClone(items);
    },
    // `set` and a reset replace the list rather than change it, so the live one can be handed out.
    saveSessionState: () => session.todos,
    restoreSessionState: (_, value) => {
      session.todos = structuredClone(checked(value, isTodoList, "a todo list"));
    },
    forgetSessionState: () => {
      session.todos = [];
    },
  };
  scope.provide("todos", todos);
  scope.provide(TOKEN_BASELINE, {
    saveSessionState: () => session.baseline && { ...session.baseline },
    restoreSessionState: (_, value) => {
      session.baseline = { ...checked(value, isTokenBaseline, "{ tokens, messages }") };
    },
    forgetSessionState: () => {
      session.baseline = undefined;
    },
  });
  scope.provide(USAGE, {
    saveSessionState: () => ({ ...session.usage }),
    restoreSessionState: (_, value) => {
      session.usage = { ...noUsage(), ...checked(value, isUsage, "counts by limit name") };
    },
    // A reset keeps what the session has used: its limits count every turn it ran.
    forgetSessionState: () => {},
  });
}

function checked<T>(value: unknown, is: (value: unknown) => value is T, what: string): T {
  if (!is(value)) throw new Error(`the stored value is not ${what}`);
  return value;
}

const STATUSES: ReadonlySet<unknown> = new Set(["pending", "in_progress", "completed"]);

function isTodoList(value: unknown): value is TodoItem[] {
  return Array.isArray(value) && value.every((item) => isRecord(item) && typeof item.content === "string" && STATUSES.has(item.status));
}

function isTokenBaseline(value: unknown): value is TokenBaseline {
  return isRecord(value) && typeof value.tokens === "number" && typeof value.messages === "number";
}

function isUsage(value: unknown): value is Partial<SessionUsage> {
  const names: ReadonlySet<string> = new Set(Object.keys(noUsage()));
  return isRecord(value) && Object.entries(value).every(([name, count]) => names.has(name) && typeof count === "number");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
