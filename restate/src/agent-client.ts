import { randomUUID } from "node:crypto";
import * as clients from "@restatedev/restate-sdk-clients";
import type { AgentResponse } from "@weft/core";
import type { Message, PendingAnswer, StoredSession, Suspension } from "@weft/sdk";
import { DEFAULT_AGENT_OBJECT, type RestateAgentObject } from "./agent-object.js";
import { adminQuery, sqlText } from "./admin-query.js";
import { AWAITING_KEY, type Awaiting } from "./awakeable-wait-for.js";
import type { TurnStreamEvent } from "./journal-events.js";
import { SESSION_KEY } from "./object-session-store.js";
import { DEFAULT_EVENTS_OBJECT, type IndexedEvent, type TurnEventsObject } from "./turn-events-object.js";

export interface RestateAgentClientOptions {
  /** The Restate ingress, e.g. `http://127.0.0.1:8080`. */
  ingressUrl: string;
  /** The admin API, for `awaiting` and `stored` (they read the object's state with no worker running). */
  adminUrl?: string;
  name?: string;
  /** The relay object's name, as the workers were given it (default `weft-events`). */
  eventsName?: string;
}

/** A turn started with `send`. */
export interface TurnHandle {
  sessionId: string;
  invocationId: string;
  /** The ingress's own handle, for `result`. */
  send: unknown;
}

/** A host's handle on agent sessions running on Restate. */
export interface RestateAgentClient {
  /** Runs a turn and resolves to its response (a pending turn resolves once answered). */
  process(sessionId: string, input: string): Promise<AgentResponse>;
  /** Starts a turn without waiting for it; `result` waits for its response, from any process. */
  send(sessionId: string, input: string): Promise<TurnHandle>;
  result(turn: TurnHandle): Promise<AgentResponse>;
  /**
   * The turn's events as the worker reports them, from index `from` on (0: all of them), ending with
   * `turn.ended`. A caller whose connection dropped reads on from the last index it got; events a
   * replay would report again come once, and a step started again after a crash is marked `step.retried`.
   * Needs workers given `events` (see `restateAgent`).
   */
  events(turn: TurnHandle, options?: { from?: number; signal?: AbortSignal }): AsyncIterable<IndexedEvent>;
  /** Runs a turn as `agent.stream` does in-process: its events while it runs, then `{ type: "response" }`. */
  stream(sessionId: string, input: string, options?: { signal?: AbortSignal }): AsyncIterable<TurnStreamEvent | { type: "response"; response: AgentResponse }>;
  /** Answers the suspension a session waits on, through the object's `answer` handler. */
  answer(sessionId: string, answer: PendingAnswer): Promise<void>;
  pending(sessionId: string): Promise<Suspension | null>;
  messages(sessionId: string): Promise<Message[]>;
  /** What a session waits on, read from Restate's state by the admin API: needs no worker. */
  awaiting(sessionId: string): Promise<Awaiting | undefined>;
  /** The session as stored (the sdk's `StoredSession`, as the SQLite and PostgreSQL stores keep it), by the admin API. */
  stored(sessionId: string): Promise<StoredSession | undefined>;
  /** Resolves an awakeable through the ingress alone: answers while no worker runs. */
  resolve(awakeableId: string, answer: PendingAnswer): Promise<void>;
}

export function restateAgentClient(options: RestateAgentClientOptions): RestateAgentClient {
  const name = options.name ?? DEFAULT_AGENT_OBJECT;
  const ingress = clients.connect({ url: options.ingressUrl });
  const object = (sessionId: string) => ingress.objectClient<RestateAgentObject>({ name }, sessionId);
  const eventsName = options.eventsName ?? DEFAULT_EVENTS_OBJECT;
  async function* events(turn: TurnHandle, { from = 0, signal }: { from?: number; signal?: AbortSignal } = {}): AsyncGenerator<IndexedEvent> {
    const relay = ingress.objectClient<TurnEventsObject>({ name: eventsName }, `${turn.sessionId}/${turn.invocationId}`);
    let next = from;
    for (;;) {
      signal?.throwIfAborted();
      const page = await relay.read({ from: next }, clients.rpc.opts(signal ? { signal } : {}));
      yield* page.events;
      next = page.next;
      if (page.ended) return;
    }
  }
  /** One state value of a session's object, read through the admin API's SQL (no worker runs for it). */
  async function readState<T>(sessionId: string, key: string): Promise<T | undefined> {
    if (!options.adminUrl) throw new Error("restateAgentClient: awaiting() and stored() read state through the admin API; give adminUrl");
    const query = `SELECT value_utf8 FROM state WHERE service_name = '${sqlText(name)}' AND service_key = '${sqlText(sessionId)}' AND key = '${sqlText(key)}'`;
    const row = (await adminQuery<{ value_utf8: string }>(options.adminUrl, query))[0];
    return row ? (JSON.parse(row.value_utf8) as T) : undefined;
  }
  const client: RestateAgentClient = {
    process: async (sessionId, input) => object(sessionId).process(input),
    async send(sessionId, input) {
      // An idempotency key makes the invocation attachable: its result can be fetched later.
      const sent = await ingress.objectSendClient<RestateAgentObject>({ name }, sessionId).process(input, clients.rpc.sendOpts({ idempotencyKey: randomUUID() }));
      return { sessionId, invocationId: sent.invocationId, send: sent };
    },
    result: (turn) => ingress.result(turn.send as Parameters<typeof ingress.result<AgentResponse>>[0]),
    events,
    async *stream(sessionId, input, { signal } = {}) {
      const turn = await client.send(sessionId, input);
      const result = client.result(turn);
      // A turn that fails rejects here too; until the events say so, keep reading them.
      result.catch(() => {});
      for await (const { event } of events(turn, signal ? { signal } : {})) {
        if (event.type !== "turn.ended") yield event;
      }
      yield { type: "response", response: await result };
    },
    answer: async (sessionId, answer) => object(sessionId).answer(answer),
    pending: async (sessionId) => object(sessionId).pending(),
    messages: async (sessionId) => object(sessionId).messages(),
    awaiting: (sessionId) => readState<Awaiting>(sessionId, AWAITING_KEY),
    stored: (sessionId) => readState<StoredSession>(sessionId, SESSION_KEY),
    resolve: (awakeableId, answer) => ingress.resolveAwakeable(awakeableId, answer),
  };
  return client;
}
