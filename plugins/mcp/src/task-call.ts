import type { Client, StandardSchemaV1, Task } from "@modelcontextprotocol/client";
import type { ToolProgress } from "@weft/sdk";
import { callResultShape } from "./call-result-shape.js";
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
  // The SDK 2.x has no task helpers: `task` goes in the params, as the 2025-11-25 spec puts it.
  const created = await client.request({ method: "tools/call", params: { ...params, task: {} } }, createdTask, request);
  let task: Task = created.task;
  try {
    for (let polls = 1; ; polls++) {
      options.onprogress({ progress: polls, ...(task.statusMessage ? { message: task.statusMessage } : {}) });
      if (task.status === "completed" || task.status === "input_required") {
        // The result request may wait for the user's answers: only the call's own signal bounds it.
        return await client.request({ method: "tasks/result", params: { taskId: task.taskId } }, callResultShape, { signal, timeout: 2_147_483_647 });
      }
      if (task.status === "failed" || task.status === "cancelled") {
        throw new Error(`the task ${task.status === "failed" ? "failed" : "was cancelled by the server"}${task.statusMessage ? `: ${task.statusMessage}` : ""}`);
      }
      await pause(task.pollInterval ?? DEFAULT_POLL_MS, signal);
      task = await client.request({ method: "tasks/get", params: { taskId: task.taskId } }, taskShape, request);
    }
  } catch (error) {
    if (signal.aborted) await client.request({ method: "tasks/cancel", params: { taskId: task.taskId } }, taskShape, { timeout: options.requestTimeoutMs }).catch(() => {});
    throw error;
  }
}

/** A check of the task answers weft reads (the SDK 2.x resolves no schema for `tasks/*` by itself). */
function shaped<T>(read: (result: unknown) => boolean, problem: string): StandardSchemaV1<unknown, T> {
  return { "~standard": { version: 1, vendor: "weft", validate: (result: unknown) => (read(result) ? { value: result as T } : { issues: [{ message: problem }] }) } };
}

const isTask = (task: unknown): boolean => typeof (task as Task | null)?.taskId === "string" && typeof (task as Task).status === "string";
/** The answer to a task-augmented `tools/call`. */
const createdTask = shaped<{ task: Task }>((result) => isTask((result as { task?: unknown } | null)?.task), "the server answered a task call without a task");
/** The answer to `tasks/get` and `tasks/cancel`: the task. */
const taskShape = shaped<Task>(isTask, "the server answered without the task");

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
