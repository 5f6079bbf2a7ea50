/** One entry of a session's todo list, as the model writes it with `todowrite`. */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/**
 * The session's todo list. The agent publishes one per session as the `todos` service, so the list is
 * saved with the session; `todowrite` replaces it.
 */
export interface TodoList {
  get(): TodoItem[];
  set(items: TodoItem[]): void;
}

declare module "@weft/sdk" {
  interface WeftServices {
    todos: TodoList;
  }
}

/** One `[x]`/`[ ]` line per item; the item in progress says so. */
export function renderTodos(items: readonly TodoItem[]): string {
  if (items.length === 0) return "(the todo list is empty)";
  return items
    .map((item) => `${item.status === "completed" ? "[x]" : "[ ]"} ${item.content}${item.status === "in_progress" ? " (in progress)" : ""}`)
    .join("\n");
}

/** A list kept in memory, for a kernel without an agent session (a tool called by hand). */
export function memoryTodoList(): TodoList {
  let items: TodoItem[] = [];
  return {
    get: () => items.map((item) => ({ ...item })),
    set: (next) => {
      items = next.map((item) => ({ ...item }));
    },
  };
}
