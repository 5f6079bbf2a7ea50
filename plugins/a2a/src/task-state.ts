import { TaskState, type Task } from "@a2a-js/sdk";

const TERMINAL = new Set<TaskState>([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);
const INTERRUPTED = new Set<TaskState>([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** The states by the names A2A gives them on the wire before v1.0 and in texts the model reads. */
export const TASK_STATE_NAMES: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
};

export function stateOf(task: Task): TaskState {
  return task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
}

/** The state as the A2A spec spells it (`input-required`), for metadata and progress. */
export function stateName(state: TaskState): string {
  return TASK_STATE_NAMES[state] ?? "unknown";
}

export function isTerminal(task: Task): boolean {
  return TERMINAL.has(stateOf(task));
}

/** Terminal, or waiting for the caller (input or authorization): following stops here. */
export function isSettled(task: Task): boolean {
  return TERMINAL.has(stateOf(task)) || INTERRUPTED.has(stateOf(task));
}

/** Identifies one status of a task: a status seen before the caller's answer must not settle the call again. */
export function statusKey(task: Task): string {
  const status = task.status;
  return `${status?.state ?? ""}|${status?.timestamp ?? ""}|${status?.message?.messageId ?? ""}`;
}
