import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema, type Task } from "@modelcontextprotocol/sdk/types.js";
import type { ToolProgress } from "@weft/sdk";
import type { CallResult } from "./flatten-result.js";

/** How often a task is polled when the server suggests no `pollInterval`. */
const DEFAULT_POLL_MS = 1_000;

export interface TaskCallOptions {
  signal: AbortSignal;
  /** Each status the server reports: its `statusMessage` as progress (which also keeps the call from going quiet). */
  onprogress(progress: ToolProgress): void;
  /** The ceiling of one poll request. */
  requestTimeoutMs: number;
}

/**
 * A `tools/call` run as an MCP task: the server answers with a task at once, weft polls `tasks/get` (at the
 * server's `pollInterval`) and fetches `tasks/result` once it completes, or as soon as it needs input: that
 * request carries the server's questions (elicitation) and returns when the task ends. An abort cancels the
 * task on the server (`tasks/cancel`).
 */
export async function callAsTask(client: Client, params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> }, options: TaskCallOptions): Promise<CallResult> {
  const { signal } = options;
  const request = { signal, timeout: options.requestTimeoutMs };
  const created = await client.request({ method: "tools/call", params }, CreateTaskResultSchema, { ...request, task: {} });
  let task: Task = created.task;
  try {
    for (let polls = 1; ; polls++) {
      options.onprogress({ progress: polls, ...(task.statusMessage ? { message: task.statusMessage } : {}) });
      if (task.status === "completed" || task.status === "input_required") {
        // The result request may wait for the user's answers: only the call's own signal bounds it.
        return (await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema, { signal, timeout: 2_147_483_647 })) as CallResult;
      }
      if (task.status === "failed" || task.status === "cancelled") {
        throw new Error(`the task ${task.status === "failed" ? "failed" : "was cancelled by the server"}${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
      }
      await pause(task.pollInterval ?? DEFAULT_POLL_MS, signal);
      task = await client.experimental.tasks.getTask(task.taskId, request);
    }
  } catch (error) {
    if (signal.aborted) await client.experimental.tasks.cancelTask(task.taskId, { timeout: options.requestTimeoutMs }).catch(() => {});
    throw error;
  }
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", stop, { once: true });
  });
}
