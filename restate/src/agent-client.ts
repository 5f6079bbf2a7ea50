import { randomUUID } from "node:crypto";
import * as clients from "@restatedev/restate-sdk-clients";
import type { AgentResponse } from "@weft/core";
import type { Message, PendingAnswer, Suspension } from "@weft/sdk";
import { DEFAULT_AGENT_OBJECT, type RestateAgentObject } from "./agent-object.js";
import { AWAITING_KEY, type Awaiting } from "./awakeable-wait-for.js";

export interface RestateAgentClientOptions {
  /** The Restate ingress, e.g. `http://127.0.0.1:8080`. */
  ingressUrl: string;
  /** The admin API, for `awaiting` (reads the object's state with no worker running). */
  adminUrl?: string;
  name?: string;
}

/** A turn started with `send`. */
export interface TurnHandle {
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
  /** Answers the suspension a session waits on, through the object's `answer` handler. */
  answer(sessionId: string, answer: PendingAnswer): Promise<void>;
  pending(sessionId: string): Promise<Suspension | null>;
  messages(sessionId: string): Promise<Message[]>;
  /** What a session waits on, read from Restate's state by the admin API: needs no worker. */
  awaiting(sessionId: string): Promise<Awaiting | undefined>;
  /** Resolves an awakeable through the ingress alone: answers while no worker runs. */
  resolve(awakeableId: string, answer: PendingAnswer): Promise<void>;
}

export function restateAgentClient(options: RestateAgentClientOptions): RestateAgentClient {
  const name = options.name ?? DEFAULT_AGENT_OBJECT;
  const ingress = clients.connect({ url: options.ingressUrl });
  const object = (sessionId: string) => ingress.objectClient<RestateAgentObject>({ name }, sessionId);
  return {
    process: async (sessionId, input) => object(sessionId).process(input),
    async send(sessionId, input) {
      // An idempotency key makes the invocation attachable: its result can be fetched later.
      const sent = await ingress.objectSendClient<RestateAgentObject>({ name }, sessionId).process(input, clients.rpc.sendOpts({ idempotencyKey: randomUUID() }));
      return { invocationId: sent.invocationId, send: sent };
    },
    result: (turn) => ingress.result(turn.send as Parameters<typeof ingress.result<AgentResponse>>[0]),
    answer: async (sessionId, answer) => object(sessionId).answer(answer),
    pending: async (sessionId) => object(sessionId).pending(),
    messages: async (sessionId) => object(sessionId).messages(),
    async awaiting(sessionId) {
      if (!options.adminUrl) throw new Error("restateAgentClient: awaiting() reads state through the admin API; give adminUrl");
      const query = `SELECT value_utf8 FROM state WHERE service_name = '${sql(name)}' AND service_key = '${sql(sessionId)}' AND key = '${AWAITING_KEY}'`;
      const response = await fetch(`${options.adminUrl}/query`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ query }),
      });
      if (!response.ok) throw new Error(`restate admin query failed: ${response.status} ${await response.text()}`);
      const { rows } = (await response.json()) as { rows: { value_utf8: string }[] };
      const row = rows[0];
      return row ? (JSON.parse(row.value_utf8) as Awaiting) : undefined;
    },
    resolve: (awakeableId, answer) => ingress.resolveAwakeable(awakeableId, answer),
  };
}

function sql(text: string): string {
  return text.replaceAll("'", "''");
}
