import type { Server } from "node:http";
import { WeftError, errorMessage, isRecord, type PendingAnswer, type WaitFor } from "@weft/sdk";
import type { AuthorizationRequest } from "./oauth-provider.js";

export interface SignInOptions {
  server: string;
  request: AuthorizationRequest;
  /** The host's resolver; without one the user is told how to sign in, and the start fails. */
  waitFor: WaitFor | undefined;
  /** The tool call the sign-in interrupts (a step-up, an expired grant); absent at a server's start. */
  call?: { callId: string; toolName: string };
  signal: AbortSignal;
  timeoutMs: number;
}

/**
 * The user's part of the authorization code grant: the sign-in URL goes to the host's `waitFor` as a
 * `pending` request of kind `authorization`, while a listener on the loopback redirect URI waits for the
 * browser to come back. Either settles it: the redirect (the host's question is then aborted), or the
 * host's answer carrying the code (`{code, state?}`, or `{url}` / a string: the URL the browser was sent
 * to), for a host whose browser cannot reach this machine. Resolves to the authorization code.
 */
export async function signIn(options: SignInOptions): Promise<string> {
  const { server, request, waitFor } = options;
  if (!waitFor) {
    throw new SignInRefused(`MCP server "${server}" needs you to sign in (OAuth): run "weft mcp login ${server}", or give the toolkit a waitFor that answers "authorization" requests`);
  }
  const settled = new AbortController();
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = AbortSignal.any([options.signal, settled.signal, timeout]);
  const listener = await listenForRedirect(request, server).catch(() => undefined);
  try {
    const redirected = listener?.code ?? new Promise<string>(() => {});
    const answered = waitFor(
      {
        kind: "authorization",
        message: `sign in to MCP server "${server}": open the link and authorize weft`,
        url: request.url.href,
        data: { server, redirectUri: request.redirectUri },
        callId: options.call?.callId ?? `mcp:${server}:sign-in`,
        toolName: options.call?.toolName ?? `mcp:${server}`,
      },
      signal,
    ).then(
      (answer) => ({ answer }),
      (error: unknown): { answer: PendingAnswer; error: unknown } => ({ answer: { action: "cancel" }, error }),
    );
    const stopped = new Promise<never>((_, reject) => {
      const fail = () => {
        const why = timeout.aborted ? `was not completed within ${options.timeoutMs} ms` : "was aborted";
        reject(new WeftError("MCP_AUTH_FAILED", `the sign-in to MCP server "${server}" ${why}`));
      };
      if (signal.aborted && !settled.signal.aborted) fail();
      AbortSignal.any([options.signal, timeout]).addEventListener("abort", fail, { once: true });
    });
    const first = await Promise.race([redirected.then((code) => ({ code })), answered, stopped]);
    if ("code" in first) return first.code;
    const { answer } = first;
    if (answer.action !== "accept") {
      const cause = "error" in first ? ` (${errorMessage(first.error)})` : "";
      const message = `the sign-in to MCP server "${server}" was ${answer.action === "decline" ? "declined" : "cancelled"}${cause}`;
      throw answer.action === "decline" ? new SignInRefused(message) : new WeftError("MCP_AUTH_FAILED", message);
    }
    const given = codeFromAnswer(answer.content, request, server);
    if (given !== undefined) return given;
    // "Done" without the code: the browser's redirect brings it.
    if (!listener) throw new WeftError("MCP_AUTH_FAILED", `the sign-in to MCP server "${server}" was confirmed, but the redirect to ${request.redirectUri} cannot be received here (its port is taken) and the answer carried no code`);
    return await Promise.race([redirected, stopped]);
  } finally {
    settled.abort();
    await listener?.close();
  }
}

/** A sign-in whose link nobody will open: the host cannot ask, or the user said no. Its stored state goes. */
export class SignInRefused extends WeftError {
  constructor(message: string) {
    super("MCP_AUTH_FAILED", message);
  }
}

/** The code in a host's answer: `{code, state?}`, `{url}` or the redirected URL as a string. */
function codeFromAnswer(content: unknown, request: AuthorizationRequest, server: string): string | undefined {
  const record = isRecord(content) ? content : {};
  const url = typeof content === "string" ? content : typeof record.url === "string" ? record.url : undefined;
  if (url !== undefined) {
    if (!URL.canParse(url)) throw new WeftError("MCP_AUTH_FAILED", `the answer to the sign-in of MCP server "${server}" is not a URL: ${url}`);
    return codeFromRedirect(new URL(url), request, server);
  }
  if (typeof record.code !== "string") return undefined;
  if (record.state !== undefined && record.state !== request.state) throw stateMismatch(server);
  return record.code;
}

/** The code of the URL the authorization server redirected to; its `error` or a foreign `state` fail. */
function codeFromRedirect(url: URL, request: AuthorizationRequest, server: string): string {
  const { code, state } = redirectParts(url, server);
  if (state !== request.state) throw stateMismatch(server);
  return code;
}

/** The code and state the authorization server's redirect carries; its `error`, or no code, fail. */
export function redirectParts(url: URL, server: string): { code: string; state: string | null } {
  const error = url.searchParams.get("error");
  if (error !== null) {
    const description = url.searchParams.get("error_description");
    throw new WeftError("MCP_AUTH_FAILED", `the authorization server refused the sign-in to MCP server "${server}": ${error}${description ? ` (${description})` : ""}`);
  }
  const code = url.searchParams.get("code");
  if (!code) throw new WeftError("MCP_AUTH_FAILED", `the redirect of the sign-in to MCP server "${server}" carries no code: ${url.origin}${url.pathname}`);
  return { code, state: url.searchParams.get("state") };
}

function stateMismatch(server: string): WeftError {
  return new WeftError("MCP_AUTH_FAILED", `the redirect of the sign-in to MCP server "${server}" carries another state than weft sent (a stale or forged redirect); sign in again`);
}

/** Listens on the redirect URI (loopback only); `code` settles with the first redirect of this sign-in. */
async function listenForRedirect(request: AuthorizationRequest, server: string): Promise<{ code: Promise<string>; close(): Promise<void> } | undefined> {
  const target = new URL(request.redirectUri);
  if (target.protocol !== "http:" || !["127.0.0.1", "localhost", "[::1]"].includes(target.hostname)) return undefined;
  let settle!: { resolve(code: string): void; reject(error: unknown): void };
  const code = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  // The race in `signIn` may end without it: an unobserved rejection must not surface.
  code.catch(() => {});
  // node:http loads with a sign-in: importing it also loads Node's fetch (undici, ~18 ms) in every MCP process.
  const { createServer } = await import("node:http");
  const listener: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", target);
    if (req.method !== "GET" || url.pathname !== target.pathname) {
      res.writeHead(404).end();
      return;
    }
    try {
      const received = codeFromRedirect(url, request, server);
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(`Signed in to MCP server "${server}". You can close this tab.\n`);
      settle.resolve(received);
    } catch (error) {
      res.writeHead(400, { "content-type": "text/plain; charset=utf-8" }).end(`${errorMessage(error)}\n`);
      // A redirect of another sign-in (a stale tab) is not this one's end; the server's refusal is.
      if (url.searchParams.has("error")) settle.reject(error);
    }
  });
  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(Number(target.port || 80), target.hostname.replace(/^\[|\]$/g, ""), resolve);
  });
  return {
    code,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        listener.closeAllConnections();
      }),
  };
}
