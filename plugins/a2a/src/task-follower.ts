import { setTimeout as sleep } from "node:timers/promises";
import type { Artifact, Message, StreamResponse, Task, TaskArtifactUpdateEvent, TaskStatusUpdateEvent } from "@a2a-js/sdk";
import type { Client } from "@a2a-js/sdk/client";
import type { Logger } from "@weft/sdk";
import { isSettled, statusKey } from "./task-state.js";
import { failureKind, failureText, failureWords, isTransient } from "./transport-failure.js";

/** Polling starts fast and backs off to a bounded interval: short tasks answer quickly, long ones cost little. */
export const POLL_FIRST_DELAY_MS = 200;
export const POLL_MAX_DELAY_MS = 2_000;

/** A stream cut this many times is followed by polling from then on. */
export const MAX_RESUBSCRIBES = 5;
/** Polls in a row that fail with a transient error before the call gives up on the agent. */
export const MAX_POLL_FAILURES = 3;

/** Where following a sent message ended: a direct reply, or a task that is terminal or waiting for the caller. */
export type Settled = { kind: "message"; message: Message } | { kind: "task"; task: Task };

/** What one stream gave: a settled outcome, or a cut (the stream ended, cleanly or not, before the task settled). */
type StreamRead = { kind: "done"; settled: Settled } | { kind: "cut"; task: Task | undefined; events: number; error?: unknown };

/** What the follower needs of the agent. */
export interface FollowedAgent {
  readonly name: string;
  readonly client: Client;
  readonly streaming: boolean;
  /** The interface the client calls, for messages. */
  readonly url: string;
  readonly logger: Logger;
}

/**
 * Sends one message and follows what it starts until it settles: over the agent's stream when its card
 * says it streams, else by polling getTask. A stream that ends early, cleanly or not, is resumed by
 * resubscribing to the task, and by polling when that gives nothing. `observe` sees every task snapshot
 * (for progress, and so the caller knows which task to cancel on abort); `note` hears how a cut stream
 * was resumed.
 */
export class TaskFollower {
  /** How the call got past a cut stream, when it had to ("connection reset after 3 events; resumed by polling"). */
  resumed: string | undefined;

  constructor(
    private readonly agent: FollowedAgent,
    private readonly signal: AbortSignal,
    private readonly observe: (task: Task) => void,
    private readonly note: (text: string) => void,
  ) {}

  /**
   * `staleStatus` is the `statusKey` of the question being answered: the agent's first snapshot still
   * shows it, and it must not end the call before the agent has read the answer.
   */
  send(message: Message, staleStatus?: string): Promise<Settled> {
    const settled = (task: Task) => isSettled(task) && statusKey(task) !== staleStatus;
    return this.agent.streaming ? this.#stream(message, settled) : this.#sendAndPoll(message, settled);
  }

  async #stream(message: Message, settled: (task: Task) => boolean): Promise<Settled> {
    const { client } = this.agent;
    let read = await this.#read((signal) => client.sendMessageStream(request(message, false), { signal }), undefined, settled);
    let events = 0;
    for (let resubscribes = 0; read.kind === "cut"; resubscribes++) {
      const { task, error } = read;
      events += read.events;
      if (!task) {
        if (error) throw new Error(`${failureText(error)} before the agent named a task`);
        throw new Error("the agent closed its stream without a reply or a task");
      }
      const what = `${error ? failureWords(error) : "the stream ended early"} after ${events} events (${this.agent.url})`;
      if (resubscribes < MAX_RESUBSCRIBES) {
        const again = await this.#read((signal) => client.resubscribeTask({ tenant: "", id: task.id }, { signal }), task, settled);
        if (again.kind === "done" || again.events > 0) {
          this.#resume(`${what}; resumed by resubscribing`);
          read = again;
          continue;
        }
      }
      // Resubscribing gave nothing (not offered, refused, the task has ended): its state is one getTask away.
      this.#resume(`${what}; resumed by polling`);
      return this.#poll(task, settled, what);
    }
    return read.settled;
  }

  /** Reads one stream to its end. Only an abort throws: any other end is for the caller to judge. */
  async #read(open: (signal: AbortSignal) => AsyncIterable<StreamResponse>, known: Task | undefined, settled: (task: Task) => boolean): Promise<StreamRead> {
    // Leaving the loop early must close the connection, not just stop reading it.
    const done = new AbortController();
    let task = known;
    let events = 0;
    try {
      for await (const event of open(AbortSignal.any([this.signal, done.signal]))) {
        const payload = event.payload;
        if (!payload) continue;
        events++;
        if (payload.$case === "message") return { kind: "done", settled: { kind: "message", message: payload.value } };
        if (payload.$case === "task") task = payload.value;
        else if (payload.$case === "statusUpdate") task = withStatus(task, payload.value);
        else task = withArtifact(task, payload.value);
        this.observe(task);
        if (settled(task)) return { kind: "done", settled: { kind: "task", task } };
      }
    } catch (error) {
      if (this.signal.aborted) throw error;
      // Before any event, only a reset leaves doubt (the agent may have started a task); anything else is the answer itself.
      if (events === 0 && !known && failureKind(error) !== "reset") throw error;
      return { kind: "cut", task, events, error };
    } finally {
      done.abort();
    }
    return { kind: "cut", task, events };
  }

  #resume(how: string): void {
    this.resumed = how;
    this.agent.logger.warn(`A2A agent ${this.agent.name}: ${how}`);
    this.note(how);
  }

  async #sendAndPoll(message: Message, settled: (task: Task) => boolean): Promise<Settled> {
    const result = await this.agent.client.sendMessage(request(message, true), { signal: this.signal });
    if ("messageId" in result) return { kind: "message", message: result };
    this.observe(result);
    return this.#poll(result, settled);
  }

  /** The current state of a task, for a call that resumes it. */
  async current(taskId: string): Promise<Task> {
    return this.agent.client.getTask({ tenant: "", id: taskId, historyLength: 0 }, { signal: this.signal });
  }

  /**
   * Polls until the task settles. A transient failure (refused, reset, a gateway) is tried again a few
   * times; then, or on any other failure, the call fails saying what happened before (`cut`).
   */
  async #poll(first: Task, settled: (task: Task) => boolean, cut?: string): Promise<Settled> {
    let task = first;
    let delay = POLL_FIRST_DELAY_MS;
    let failures = 0;
    while (!settled(task)) {
      await sleep(delay, undefined, { signal: this.signal });
      delay = Math.min(delay * 2, POLL_MAX_DELAY_MS);
      let next: Task;
      try {
        next = await this.agent.client.getTask({ tenant: "", id: task.id }, { signal: this.signal });
      } catch (error) {
        if (this.signal.aborted) throw error;
        if (isTransient(error) && ++failures < MAX_POLL_FAILURES) continue;
        throw new Error(cut ? `${cut}; resuming by polling failed: ${failureText(error)}` : `polling the task failed: ${failureText(error)}`);
      }
      failures = 0;
      task = next;
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

/** Applies an artifact update: `append` adds the chunk's parts to the artifact with the same id, else it replaces it. */
function withArtifact(task: Task | undefined, update: TaskArtifactUpdateEvent): Task {
  const base = task ?? blankTask(update.taskId, update.contextId);
  const incoming = update.artifact;
  if (!incoming) return base;
  const artifacts: Artifact[] = [...base.artifacts];
  const index = artifacts.findIndex((artifact) => artifact.artifactId === incoming.artifactId);
  const existing = artifacts[index];
  if (!existing) artifacts.push(incoming);
  else artifacts[index] = update.append ? { ...existing, parts: [...existing.parts, ...incoming.parts] } : incoming;
  return { ...base, artifacts };
}
