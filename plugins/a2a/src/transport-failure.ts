import { errorCode, errorMessage } from "@weft/sdk";

/** What went wrong on the wire, in the words the model and the log read. */
export type FailureKind = "refused" | "reset" | "timeout" | "gateway" | "other";

const WORDS: Record<Exclude<FailureKind, "other">, string> = {
  refused: "connection refused",
  reset: "connection reset",
  timeout: "connection timed out",
  gateway: "gateway error",
};

const CODES: Record<string, FailureKind> = {
  ECONNREFUSED: "refused",
  ECONNRESET: "reset",
  EPIPE: "reset",
  UND_ERR_SOCKET: "reset",
  UND_ERR_CLOSED: "reset",
  ETIMEDOUT: "timeout",
  UND_ERR_CONNECT_TIMEOUT: "timeout",
  UND_ERR_HEADERS_TIMEOUT: "timeout",
  UND_ERR_BODY_TIMEOUT: "timeout",
};

/** An HTTP answer from the agent's endpoint that says what to do (401, 403, a redirect, a gateway that kept failing). */
export class AgentHttpError extends Error {
  override readonly name = "AgentHttpError";
  constructor(
    readonly url: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A request that never got an answer: refused, reset, timed out. The message names the URL. */
export class AgentTransportError extends Error {
  override readonly name = "AgentTransportError";
  constructor(
    readonly kind: FailureKind,
    readonly url: string,
    cause: unknown,
  ) {
    super(`${kind === "other" ? errorMessage(cause) : WORDS[kind]} (${url})`, { cause });
  }
}

/** Classifies an error by its code, looking through `cause` (undici wraps the socket's error). */
export function failureKind(error: unknown): FailureKind {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof AgentTransportError) return current.kind;
    if (current instanceof AgentHttpError) return current.status >= 502 && current.status <= 504 ? "gateway" : "other";
    const code = errorCode(current);
    if (code !== undefined && CODES[code]) return CODES[code];
    // undici ends a body whose socket closed early with a bare TypeError("terminated").
    if (current.message === "terminated") return "reset";
  }
  return "other";
}

export function isTransient(error: unknown): boolean {
  return failureKind(error) !== "other";
}

/** What happened, without the URL: "connection reset", or the error's message. */
export function failureWords(error: unknown): string {
  const kind = failureKind(error);
  return kind === "other" ? errorMessage(error) : WORDS[kind];
}

/** What a failed call says: "connection refused (<url>)", or the error's own message (with its cause's, which says why fetch failed). */
export function failureText(error: unknown): string {
  const kind = failureKind(error);
  if (error instanceof AgentTransportError || error instanceof AgentHttpError) return error.message;
  if (kind !== "other") return WORDS[kind];
  const cause = error instanceof Error ? error.cause : undefined;
  return cause instanceof Error && cause.message !== errorMessage(error) ? `${errorMessage(error)} (${cause.message})` : errorMessage(error);
}
