import { setTimeout as sleep } from "node:timers/promises";
import type { Artifact, Message, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import { isSettled, statusKey } from "./task-state.js";

/** Polling starts fast and backs off to a bounded interval: short tasks answer quickly, long ones cost little. */
export const POLL_FIRST_DELAY_MS = 200;
export const POLL_MAX_DELAY_MS = 2_000;

/** Where following a sent message ended: a direct reply, or a task that is terminal or waiting for the caller. */
export type Settled = { kind: "message"; message: Message } | { kind: "task"; task: Task };

/**
 * Sends one message and follows what it starts until it settles: over the agent's stream when its card
 * says it streams, else by polling getTask. `observe` sees every task snapshot (for progress, and so
 * the caller knows which task to cancel on abort).
 */
export class TaskFollower {
  constructor(
    private readonly client: Client,
    private readonly streaming: boolean,
    private readonly signal: AbortSignal,
    private readonly observe: (task: Task) => void,
  ) {}

  /**
   * `staleStatus` is the `statusKey` of the question being answered: the agent's first snapshot still
   * shows it, and it must not end the call before the agent has read the answer.
   */
  send(message: Message, staleStatus?: string): Promise<Settled> {
    const settled = (task: Task) => isSettled(task) && statusKey(task) !== staleStatus;
    return this.streaming ? this.#stream(message, settled) : this.#sendAndPoll(message, settled);
  }

  async #stream(message: Message, settled: (task: Task) => boolean): Promise<Settled> {
    // Leaving the loop early must close the connection, not just stop reading it.
    const done = new AbortController();
    const signal = AbortSignal.any([this.signal, done.signal]);
    let task: Task | undefined;
    try {
      for await (const event of this.client.sendMessageStream(request(message, false), { signal })) {
        const payload = event.payload;
        if (!payload) continue;
        if (payload.$case === "message") return { kind: "message", message: payload.value };
        if (payload.$case === "task") task = payload.value;
        else if (payload.$case === "statusUpdate") task = withStatus(task, payload.value);
        else task = withArtifact(task, payload.value);
        this.observe(task);
        if (settled(task)) return { kind: "task", task };
      }
    } finally {
      done.abort();
    }
    if (!task) throw new Error("the agent closed its stream without a reply or a task");
    // The stream ended before the task settled (a proxy cut it, the agent stopped publishing): poll.
    return this.#poll(task, settled);
  }

  async #sendAndPoll(message: Message, settled: (task: Task) => boolean): Promise<Settled> {
    const result = await this.client.sendMessage(request(message, true), { signal: this.signal });
    if ("messageId" in result) return { kind: "message", message: result };
    this.observe(result);
    return this.#poll(result, settled);
  }

  /** The current state of a task, for a call that resumes it. */
  async current(taskId: string): Promise<Task> {
    return this.client.getTask({ tenant: "", id: taskId, historyLength: 0 }, { signal: this.signal });
  }

  async #poll(first: Task, settled: (task: Task) => boolean): Promise<Settled> {
    let task = first;
    let delay = POLL_FIRST_DELAY_MS;
    while (!settled(task)) {
      await sleep(delay, undefined, { signal: this.signal });
      delay = Math.min(delay * 2, POLL_MAX_DELAY_MS);
      task = await this.client.getTask({ tenant: "", id: task.id }, { signal: this.signal });
      this.observe(task);
    }
    return { kind: "task", task };
  }
}

function request(message: Message, returnImmediately: boolean) {
  return {
    tenant: "",
    message,
    configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately },
    metadata: undefined,
  };
}

function blankTask(taskId: string, contextId: string): Task {
  return { id: taskId, contextId, status: undefined, artifacts: [], history: [], metadata: undefined };
}

function withStatus(task: Task | undefined, update: TaskStatusUpdateEvent): Task {
  return { ...(task ?? blankTask(update.taskId, update.contextId)), status: update.status };
}

/** Applies an artifact update: `append` adds parts to the artifact with the same id, else it replaces it. */
function withArtifact(task: Task | undefined, update: TaskArtifactUpdateEvent): Task {
  const base = task ?? blankTask(update.taskId, update.contextId);
  const incoming = update.artifact;
  if (!incoming) return base;
  const artifacts: Artifact[] = [...base.artifacts];
  const index = artifacts.findIndex((artifact) => artifact.artifactId === incoming.artifactId);
  if (index < 0) artifacts.push(incoming);
  else artifacts[index] = update.append ? { ...artifacts[index], parts: [...artifacts[index].parts, ...incoming.parts] } : incoming;
  return { ...base, artifacts };
}
