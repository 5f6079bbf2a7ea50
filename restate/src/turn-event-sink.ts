import * as clients from "@restatedev/restate-sdk-clients";
import type { KeyedEvent } from "./journal-events.js";
import type { TurnEventsObject } from "./turn-events-object.js";

/** Where a worker sends a turn's events for its caller. */
export interface TurnEventSink {
  add(item: KeyedEvent): void;
  /** Resolves once everything added so far was sent (or given up on: events never fail a turn). */
  flush(): Promise<void>;
}

/** How long the sink keeps trying to hand a batch to the relay before it gives the batch up. */
const ATTEMPTS = 5;

/**
 * Sends a turn's events to its relay object through the Restate ingress, in order: one batch in
 * flight at a time, the events that arrive meanwhile forming the next, so a fast token stream costs
 * one call per round trip rather than one per delta. A batch is a one-way call: sent once Restate has
 * it in its log (durably, in the object's queue, which keeps their order), before the relay ran it.
 * Resent batches are harmless: the relay drops what it has by key.
 */
export function ingressEventSink(ingressUrl: string, objectName: string, topic: string, onError: (error: unknown) => void): TurnEventSink {
  const relay = clients.connect({ url: ingressUrl }).objectSendClient<TurnEventsObject>({ name: objectName }, topic);
  let queued: KeyedEvent[] = [];
  let pumping: Promise<void> | undefined;
  const pump = async () => {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      for (let attempt = 1; ; attempt++) {
        try {
          await relay.publish(batch);
          break;
        } catch (error) {
          if (attempt >= ATTEMPTS) {
            onError(error);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 50 * 2 ** attempt));
        }
      }
    }
    pumping = undefined;
  };
  return {
    add(item) {
      queued.push(item);
      pumping ??= pump();
    },
    flush: async () => {
      while (pumping) await pumping;
    },
  };
}
