import * as restate from "@restatedev/restate-sdk";
import type { KeyedEvent, TurnStreamEvent } from "./journal-events.js";

export const DEFAULT_EVENTS_OBJECT = "weft-events";

/** One event as the caller reads it: `index` is its place in the turn's stream, to resume after. */
export interface IndexedEvent {
  index: number;
  event: TurnStreamEvent;
}

/** What `read` answers: events from the asked index on, where to read next, and whether the turn ended. */
export interface EventPage {
  events: IndexedEvent[];
  next: number;
  ended: boolean;
}

interface Meta {
  /** Events kept so far (the next event's index). */
  tail: number;
  /** The last between-steps key kept: the agent loop's events are deterministic, so anything at or before it was seen. */
  between?: { step: number; index: number };
  /** Per step: the attempt whose events were kept last, and its last index. */
  attempts: Record<string, { attempt: string; index: number }>;
  ended: boolean;
}

interface Waiter {
  from: number;
  id: string;
}

export interface TurnEventsOptions {
  name?: string;
  /** How long a turn's events are kept after its first one (default one day), then cleared. */
  retentionMs?: number;
  /** How long one `read` waits for an event before it answers with none (default 30 s): a long poll. */
  waitMs?: number;
}

/** The most events one `read` answers with. */
const PAGE = 1000;

type ObjectContext = restate.ObjectContext;
type SharedContext = restate.ObjectSharedContext;

/** The relay's handlers, for typed clients. */
export interface TurnEventsApi {
  publish(ctx: ObjectContext, batch: KeyedEvent[]): Promise<void>;
  read(ctx: SharedContext, request: { from: number }): Promise<EventPage>;
  wait(ctx: ObjectContext, waiter: Waiter): Promise<void>;
  clear(ctx: ObjectContext): Promise<void>;
}

/**
 * A turn's events, kept by Restate for its caller: a virtual object keyed by `<session id>/<invocation
 * id>` (the pattern of Restate's own pub/sub). Workers `publish` keyed batches; the relay keeps each
 * event once (a replayed or resent one is dropped by its key), gives it the next index, and marks a
 * step that starts again after a crash. A caller `read`s from an index, waiting while there is nothing
 * new, so a caller that lost its connection, or a worker that died, loses nothing.
 */
export function turnEventsObject(options: TurnEventsOptions = {}) {
  const name = options.name ?? DEFAULT_EVENTS_OBJECT;
  const retentionMs = options.retentionMs ?? 86_400_000;
  const waitMs = options.waitMs ?? 30_000;
  const self = (ctx: ObjectContext | SharedContext) => ctx.objectSendClient<TurnEventsApi>({ name }, ctx.key);
  const page = async (ctx: ObjectContext | SharedContext, meta: Meta, from: number): Promise<EventPage> => {
    const to = Math.min(meta.tail, from + PAGE);
    const events: IndexedEvent[] = [];
    for (let index = from; index < to; index++) {
      const event = await ctx.get<TurnStreamEvent>(`e${index}`);
      if (event) events.push({ index, event });
    }
    return { events, next: to, ended: meta.ended && to === meta.tail };
  };
  const handlers: TurnEventsApi = {
    async publish(ctx, batch) {
      const stored = await ctx.get<Meta>("meta");
      const meta: Meta = stored ?? { tail: 0, attempts: {}, ended: false };
      if (!stored) self(ctx).clear(restate.rpc.sendOpts({ delay: { milliseconds: retentionMs } }));
      const keep = (event: TurnStreamEvent) => {
        ctx.set(`e${meta.tail++}`, event);
        if (event.type === "turn.ended") meta.ended = true;
      };
      for (const { key, event } of batch) {
        if (key.attempt === undefined) {
          const last = meta.between;
          if (last && (key.step < last.step || (key.step === last.step && key.index <= last.index))) continue;
          meta.between = { step: key.step, index: key.index };
          keep(event);
          continue;
        }
        const seen = meta.attempts[key.step];
        if (seen?.attempt === key.attempt) {
          if (key.index <= seen.index) continue;
          seen.index = key.index;
        } else {
          if (seen) keep({ type: "step.retried", step: key.step });
          meta.attempts[key.step] = { attempt: key.attempt, index: key.index };
        }
        keep(event);
      }
      ctx.set("meta", meta);
      const waiters = (await ctx.get<Waiter[]>("waiters")) ?? [];
      const still: Waiter[] = [];
      for (const waiter of waiters) {
        if (waiter.from < meta.tail || meta.ended) ctx.resolveAwakeable(waiter.id, await page(ctx, meta, waiter.from));
        else still.push(waiter);
      }
      ctx.set("waiters", still);
    },
    async read(ctx, { from }) {
      const meta = (await ctx.get<Meta>("meta")) ?? { tail: 0, attempts: {}, ended: false };
      if (from < meta.tail || meta.ended) return page(ctx, meta, from);
      const { id, promise } = ctx.awakeable<EventPage>();
      self(ctx).wait({ from, id });
      try {
        return await promise.orTimeout(waitMs);
      } catch (error) {
        if (error instanceof restate.TimeoutError) return { events: [], next: from, ended: false };
        throw error;
      }
    },
    async wait(ctx, waiter) {
      const meta = await ctx.get<Meta>("meta");
      if (meta && (waiter.from < meta.tail || meta.ended)) {
        ctx.resolveAwakeable(waiter.id, await page(ctx, meta, waiter.from));
        return;
      }
      ctx.set("waiters", [...((await ctx.get<Waiter[]>("waiters")) ?? []), waiter]);
    },
    async clear(ctx) {
      for (const waiter of (await ctx.get<Waiter[]>("waiters")) ?? []) ctx.rejectAwakeable(waiter.id, "the turn's events were cleared");
      ctx.clearAll();
    },
  };
  return restate.object({
    name,
    handlers: { ...handlers, read: restate.handlers.object.shared(handlers.read) },
  });
}

export type TurnEventsObject = ReturnType<typeof turnEventsObject>;
