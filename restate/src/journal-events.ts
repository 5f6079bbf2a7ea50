import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { Context, RunOptions } from "@restatedev/restate-sdk";
import type { FeedbackEvent } from "@weft/sdk";
import type { TurnEventSink } from "./turn-event-sink.js";

/**
 * Where an event stands in a turn's journal. An event the agent loop emits between steps is keyed by
 * how many steps had started and its place after them: the same on every replay, so a relay that saw
 * it once drops it again. An event emitted while a step runs carries that run's attempt: only a run
 * that really executes reports it, and a second attempt of the step (after a crash) is told apart.
 */
export type EventKey = { step: number; index: number; attempt?: string };

/** What the caller's stream carries: the session's feedback events, a step that started again, the end. */
export type TurnStreamEvent =
  | FeedbackEvent
  /** Step `step` ran again after its worker stopped: what it streamed in the attempt before (text deltas) is void. */
  | { type: "step.retried"; step: number }
  /** The turn's last event; `error` when it failed for good. */
  | { type: "turn.ended"; error?: string };

export interface KeyedEvent {
  key: EventKey;
  event: TurnStreamEvent;
}

/** Events the journaled model yields only from a step that runs (never on replay): they need no holding. */
const LIVE = new Set<FeedbackEvent["type"]>(["text.delta", "reasoning.delta", "output.partial", "model.notice"]);

interface Run {
  step: number;
  attempt: string;
  index: number;
}

/**
 * The turn's journaled steps and its feedback events, kept replay-proof. Restate resumes an
 * invocation by running the handler again from the top, the completed steps answered from the
 * journal (in request-response mode, at every step). The agent loop between steps runs again each
 * time and emits its events (`model.request`, `model.response`, `turn.finished`...) again: so those
 * are held until the next step, reported when that step really runs and dropped when it is replayed
 * (it ran before, and so did the report). Events from inside a step (tool events, model deltas) only
 * happen when it runs. Everything reported also goes to the `sink`, keyed, for the caller.
 */
export class JournalEvents {
  readonly #ctx: Context;
  readonly #sink: TurnEventSink | undefined;
  #started = 0;
  #index = 0;
  #held: { before: number; item: KeyedEvent; deliver: () => void }[] = [];
  readonly #runs = new AsyncLocalStorage<Run>();
  /** The latest model step's run: its deltas come out of the step a little after it. */
  #model: Run | undefined;
  #delivering = false;

  constructor(ctx: Context, sink?: TurnEventSink) {
    this.#ctx = ctx;
    this.#sink = sink;
  }

  /** A journaled step (`ctx.run`); `model` marks a model call, whose deltas are reported live. */
  async step<T>(name: string, action: () => Promise<T>, options: RunOptions<T> = {}, model = false): Promise<T> {
    const number = ++this.#started;
    this.#index = 0;
    this.#model = undefined;
    let ran = false;
    try {
      return await this.#ctx.run(
        name,
        async () => {
          ran = true;
          this.#release(number);
          const run: Run = { step: number, attempt: randomUUID(), index: 0 };
          if (model) this.#model = run;
          try {
            return await this.#runs.run(run, action);
          } finally {
            // A step counts as done once what it reported is in Restate's log, on its way to the relay.
            await this.#sink?.flush();
          }
        },
        options,
      );
    } finally {
      if (!ran) this.#drop(number);
    }
  }

  /** An event the agent loop emits: reported now when it comes from a running step, else held until the next step. */
  emit(event: FeedbackEvent, deliver: (event: FeedbackEvent) => void): void {
    const model = this.#model;
    if (LIVE.has(event.type) && model) {
      this.#deliver({ key: { step: model.step, attempt: model.attempt, index: model.index++ }, event }, () => deliver(event));
      return;
    }
    this.#held.push({ before: this.#started + 1, item: { key: { step: this.#started, index: this.#index++ }, event }, deliver: () => deliver(event) });
  }

  /** An event that reached the session's subscribers by another way than `emit`: a step's tool events. */
  observed(event: FeedbackEvent): void {
    if (this.#delivering) return;
    const run = this.#runs.getStore();
    if (run) this.#sink?.add({ key: { step: run.step, attempt: run.attempt, index: run.index++ }, event });
  }

  /** The handler's end: what is still held happened after the last step, and the turn is over. */
  async end(error?: string): Promise<void> {
    this.#release(Number.POSITIVE_INFINITY);
    this.#sink?.add({ key: { step: this.#started, index: this.#index++ }, event: { type: "turn.ended", ...(error !== undefined ? { error } : {}) } });
    await this.#sink?.flush();
  }

  #release(step: number): void {
    const due = this.#held.filter((held) => held.before <= step);
    this.#held = this.#held.filter((held) => held.before > step);
    for (const held of due) this.#deliver(held.item, held.deliver);
  }

  #drop(step: number): void {
    this.#held = this.#held.filter((held) => held.before > step);
  }

  #deliver(item: KeyedEvent, deliver: () => void): void {
    this.#sink?.add(item);
    this.#delivering = true;
    try {
      deliver();
    } finally {
      this.#delivering = false;
    }
  }
}
