import { defineTool, Type } from "@weft/sdk";
import type { Tool } from "@weft/sdk";
import { renderTodos, type TodoList } from "./todo-list.js";

const input = Type.Object({
  todos: Type.Array(
    Type.Object({
      content: Type.String({ description: "What to do, in a short imperative sentence" }),
      status: Type.Union([Type.Literal("pending"), Type.Literal("in_progress"), Type.Literal("completed")]),
    }),
    { description: "The whole list: it replaces the previous one" },
  ),
});

/**
 * `todowrite`: replaces the session's todo list and returns it rendered, one `[x]`/`[ ]` line per item.
 * The list is the calling session's `todos` service; `fallback` serves a call made outside a session.
 */
export function todowriteTool(fallback: () => TodoList): Tool {
  return defineTool({
    name: "todowrite",
    description:
      "Write your todo list for a task with several steps. Send the whole list each time (it replaces the previous one), with each item's status: pending, in_progress (one at a time) or completed. Mark items completed as soon as they are done.",
    input,
    source: { kind: "builtin", id: "@weft/core" },
    execute: ({ todos }, ctx) => {
      const target = ctx.session?.has("todos") ? ctx.session.need("todos") : fallback();
      target.set(todos);
      return { output: renderTodos(target.get()), metadata: { todos } };
    },
  }) as Tool;
}
