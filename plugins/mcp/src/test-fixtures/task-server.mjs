#!/usr/bin/env node
// A stdio MCP server that runs tools as MCP tasks (the SDK's server-side tasks with an in-memory store),
// for what server-everything cannot show: whether a task was cancelled.
//   endless      task-only: never completes; its status message names its task id ("task <id> is working")
//   tasks        an ordinary tool: every task as the server's store has it, one `<taskId> <status>: <statusMessage>` line each
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { InMemoryTaskStore } from "@modelcontextprotocol/sdk/experimental/tasks";

const taskStore = new InMemoryTaskStore();
const server = new McpServer(
  { name: "weft-task-server", version: "1.0.0" },
  { capabilities: { tools: {}, tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } }, taskStore },
);

server.experimental.tasks.registerToolTask(
  "endless",
  { description: "Runs as a task that never completes", execution: { taskSupport: "required" } },
  {
    createTask: async (extra) => {
      const task = await extra.taskStore.createTask({ ttl: 300_000, pollInterval: 100 });
      await extra.taskStore.updateTaskStatus(task.taskId, "working", `task ${task.taskId} is working`);
      return { task };
    },
    getTask: async (extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (extra) => extra.taskStore.getTaskResult(extra.taskId),
  },
);

server.registerTool("tasks", { description: "Every task, as the server's store has it" }, async () => ({
  content: [{ type: "text", text: taskStore.getAllTasks().map((task) => `${task.taskId} ${task.status}: ${task.statusMessage ?? ""}`).join("\n") }],
}));

await server.connect(new StdioServerTransport());
