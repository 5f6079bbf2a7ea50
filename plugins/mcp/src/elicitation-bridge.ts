import { randomUUID } from "node:crypto";
import type { ElicitRequest, ElicitResult, UrlElicitationRequiredError } from "@modelcontextprotocol/client";
import type { PendingAnswer, PendingRequest } from "@weft/sdk";
import type { InFlightCall } from "./in-flight-call.js";

export type ElicitParams = ElicitRequest["params"];

/** An `elicitation/create` the server is waiting on, parked until the host answers. */
export interface HeldElicitation {
  /** The continuation token carried in the pending request's `data`. */
  readonly token: string;
  readonly params: ElicitParams;
  answer(result: ElicitResult): void;
}

/** What a `pending` request of this plugin carries in `data`. */
export interface ElicitationTicket {
  server: string;
  token: string;
  mode: "form" | "url";
  /** A URL the server required before it would run the call (-32042): accepting runs the call again. */
  retry?: true;
}

/**
 * Turns server→client `elicitation/create` requests into weft `pending` requests. MCP asks its question
 * in the middle of a `tools/call`; weft's loop asks its host between tool runs. So the question is held
 * here under a token, the tool's execute returns `pending` with the token, and the re-run with the host's
 * answer (`take(token)`) sends the answer and goes on waiting for the same call.
 *
 * A question goes to the call whose stream carried it (Streamable HTTP, see StreamAttribution). MCP puts no
 * link in the message, so without a stream (stdio) it goes to the oldest call of this server that is not
 * already waiting for an answer. A question asked outside any call is cancelled.
 */
export class ElicitationBridge {
  readonly #held = new Map<string, { call: InFlightCall; held: HeldElicitation }>();

  constructor(
    /** How long a question may wait for the host before it is cancelled. */
    private readonly answerTimeoutMs: number,
    /** The connection's calls in flight, oldest first, by their ids (the progress token each was sent with). */
    private readonly calls: ReadonlyMap<string, InFlightCall>,
  ) {}

  /**
   * The client's `elicitation/create` handler. `signal` fires when the server withdraws the question;
   * `askedBy` is the progress token of the call it is known to belong to.
   */
  handle(params: ElicitParams, signal: AbortSignal, askedBy?: string): Promise<ElicitResult> {
    const running = [...this.calls].filter(([, tracked]) => !tracked.done);
    const call = (running.find(([token]) => token === askedBy) ?? running.find(([, tracked]) => !tracked.waitingForAnswer) ?? running[0])?.[1];
    if (!call) return Promise.resolve({ action: "cancel" });
    return new Promise<ElicitResult>((resolve) => {
      const token = randomUUID();
      let settled = false;
      const held: HeldElicitation = {
        token,
        params,
        answer: (result) => {
          if (settled) return;
          settled = true;
          clearTimeout(expiry);
          signal.removeEventListener("abort", withdraw);
          resolve(result);
          call.answered();
        },
      };
      const expiry = setTimeout(() => {
        this.#held.delete(token);
        held.answer({ action: "cancel" });
      }, this.answerTimeoutMs);
      // A question the host never answers must not keep the process alive.
      expiry.unref();
      const withdraw = () => held.answer({ action: "cancel" });
      signal.addEventListener("abort", withdraw, { once: true });
      this.#held.set(token, { call, held });
      call.elicit(held);
    });
  }

  /** The held question and its call for a token from a pending request; each token is taken once. */
  take(token: unknown): { call: InFlightCall; held: HeldElicitation } | undefined {
    if (typeof token !== "string") return undefined;
    const entry = this.#held.get(token);
    this.#held.delete(token);
    return entry;
  }

  /** Cancels every held question (the server is going away). */
  close(): void {
    for (const { held } of this.#held.values()) held.answer({ action: "cancel" });
    this.#held.clear();
  }
}

/** The pending request a tool returns for a held question. */
export function pendingRequest(server: string, held: HeldElicitation): PendingRequest {
  const { params } = held;
  const data: ElicitationTicket = { server, token: held.token, mode: params.mode === "url" ? "url" : "form" };
  return { ...questionOf(params), data };
}

/** A server's elicitation as weft's pending request, without its `data`: a form's schema, or a page's URL. */
export function questionOf(params: ElicitParams): Omit<PendingRequest, "data"> {
  if (params.mode === "url") return { kind: "elicitation", message: params.message, url: params.url };
  return { kind: "elicitation", message: params.message, schema: params.requestedSchema as Record<string, unknown> };
}

/** The host's answer as MCP's ElicitResult: form content passes through, a URL accept carries none. */
export function elicitResult(answer: PendingAnswer, mode: unknown): ElicitResult {
  if (answer.action !== "accept") return { action: answer.action };
  if (mode === "url") return { action: "accept" };
  const content = typeof answer.content === "object" && answer.content !== null && !Array.isArray(answer.content) ? answer.content : {};
  return { action: "accept", content: content as ElicitResult["content"] };
}

/**
 * The pending request for a -32042 "URL elicitation required" error: the server will run the call once
 * the user has been to the page, so the answer re-runs it. Several URLs are asked one at a time: the
 * server names the next when the call is refused again.
 */
export function urlRequiredRequest(server: string, error: UrlElicitationRequiredError): PendingRequest | undefined {
  const first = error.elicitations[0];
  if (!first) return undefined;
  const data: ElicitationTicket = { server, token: first.elicitationId, mode: "url", retry: true };
  return { kind: "elicitation", message: first.message, url: first.url, data };
}
