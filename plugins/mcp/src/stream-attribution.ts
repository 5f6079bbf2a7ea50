import type { FetchLike } from "@modelcontextprotocol/client";
import { callHeaders } from "@weft/sdk";

/**
 * Which call a server's request belongs to, over Streamable HTTP: a server asks its question
 * (`elicitation/create`) on the event stream that answers the `tools/call` it is about, and MCP puts no
 * link in the message itself. This fetch reads along each call's stream (before the SDK's transport does)
 * and remembers, for every question the server sends there, the progress token of the call whose stream
 * carried it; the elicitation handler then asks `callOf(requestId)`.
 *
 * A question that comes some other way (the standalone GET stream, a resumed stream) has no link, and
 * stdio has no streams at all: those fall back to the bridge's guess.
 *
 * Being the fetch of every HTTP request to the server, it also adds the calling tool call's own
 * headers (W3C trace context, `callHeaders()`).
 */
export class StreamAttribution {
  readonly #callOf = new Map<string | number, string>();

  readonly fetch: FetchLike = async (url, init) => {
    const response = await fetch(url, addCallHeaders(init));
    const token = init?.method === "POST" ? progressTokenOf(init.body) : undefined;
    const type = response.headers.get("content-type") ?? "";
    if (token === undefined || !response.ok || !response.body || !type.includes("text/event-stream")) return response;
    const tapped = response.body.pipeThrough(this.#tap(token));
    return new Response(tapped, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** The progress token of the call whose stream carried the server's request `requestId` (taken once). */
  callOf(requestId: string | number): string | undefined {
    const token = this.#callOf.get(requestId);
    this.#callOf.delete(requestId);
    return token;
  }

  /** Passes the bytes on unchanged, noting the id of every request on a `data:` line as it completes. */
  #tap(token: string): TransformStream<Uint8Array, Uint8Array> {
    const decoder = new TextDecoder();
    let partial = "";
    return new TransformStream({
      transform: (chunk, controller) => {
        const lines = (partial + decoder.decode(chunk, { stream: true })).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) this.#note(line, token);
        controller.enqueue(chunk);
      },
    });
  }

  #note(line: string, token: string): void {
    // Only questions are looked up (and taken); noting other requests would keep them forever.
    if (!line.startsWith("data:") || !line.includes('"elicitation/create"')) return;
    try {
      const message = JSON.parse(line.slice(5)) as { id?: unknown; method?: unknown };
      if (message.method === "elicitation/create" && (typeof message.id === "string" || typeof message.id === "number")) this.#callOf.set(message.id, token);
    } catch {
      // Not JSON: the transport reports it.
    }
  }
}

/** The progress token weft put on a `tools/call` body, if this body is one. */
function progressTokenOf(body: unknown): string | undefined {
  if (typeof body !== "string" || !body.includes('"tools/call"')) return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
    const token = message.method === "tools/call" ? message.params?._meta?.progressToken : undefined;
    return token === undefined ? undefined : String(token);
  } catch {
    return undefined;
  }
}

/** The call's own headers (W3C trace context) on top of the transport's; nothing changes outside a call. */
function addCallHeaders(init: RequestInit | undefined): RequestInit | undefined {
  const extra = Object.entries(callHeaders());
  if (extra.length === 0) return init;
  const headers = new Headers(init?.headers);
  for (const [name, value] of extra) headers.set(name, value);
  return { ...init, headers };
}
