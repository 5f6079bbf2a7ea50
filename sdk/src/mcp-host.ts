/**
 * The service @weft/plugin-mcp publishes (`api.provide("mcp", host)`), so packs backed by an MCP server
 * (web, coding, third-party ones) start it through the one MCP bridge instead of importing it.
 */

/** One server entry of mcp.json, in the common (Claude Desktop / Cursor) format. */
export interface McpServerConfig {
  /** stdio: the program, run without a shell. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /**
   * `stdio` (the default with `command`), `http` (Streamable HTTP, falling back to SSE; the default with
   * `url`) or `sse`. mcp.json files may also say `local`/`remote` (the array form), which the plugin maps.
   */
  type?: "stdio" | "http" | "sse";
  url?: string;
  headers?: Record<string, string>;
  enabled?: boolean;
  disabled?: boolean;
  /** Connect and list time limit in ms (default 30 s). */
  timeout?: number;
  /** One call's ceiling in ms (default 2 min). */
  toolTimeout?: number;
  /** Allowlist (names) or drop-list (`!name`) of the server's own tool names. */
  tools?: string[];
  /** Extra environment variables to pass to a stdio server. */
  inheritEnv?: string[];
  /** The most a tool result, prompt message or resource text may give the model, in bytes (default 1 MiB); the rest is cut with a note. */
  maxResultBytes?: number;
  /**
   * OAuth 2.1 for a remote server (the MCP authorization spec). `{}` signs in with the authorization code
   * grant and dynamic client registration; a `clientId` that is an https URL is a client ID metadata
   * document. Secrets may be `${VAR}` references.
   */
  auth?: McpServerAuth;
  /** The least severe log message the server should send (`logging/setLevel`; default `warning`). */
  logLevel?: "debug" | "info" | "notice" | "warning" | "error" | "critical" | "alert" | "emergency";
}

/** A remote server's `auth:` entry; these names are shared with other MCP tools' configs. */
export interface McpServerAuth {
  /** `authorization_code` (the default: the user signs in through a browser) or `client_credentials` (a machine client). */
  grant?: "authorization_code" | "client_credentials";
  /** A pre-registered client's id, or an https URL of a client ID metadata document; absent: dynamic registration. */
  clientId?: string;
  /** The pre-registered client's secret (`client_secret_basic`/`_post`), e.g. `"${MCP_SECRET}"`. */
  clientSecret?: string;
  /** A PEM private key: the client authenticates with a signed JWT (`private_key_jwt`). */
  privateKey?: string;
  /** The JWT's algorithm (RS256, ES256, ...); by default from the key's type. */
  signingAlgorithm?: string;
  /** Scopes to ask for when the server names none (its `WWW-Authenticate` and metadata come first). */
  scopes?: string[];
  /** The port of the redirect URI `http://127.0.0.1:<port>/callback` (pre-registered clients need a fixed one). */
  redirectPort?: number;
}

/**
 * `reconnecting`: a remote server's session was lost (it restarted or went down); its tools stay listed,
 * the next call (or a timer, with capped backoff) opens a new session, and it turns `failed` when the
 * attempts run out.
 */
export type McpServerState = "connected" | "starting" | "reconnecting" | "stopped" | "failed" | "disabled";

export interface McpServerStatus {
  name: string;
  state: McpServerState;
  tools: number;
  /** Connected: the MCP protocol version negotiated, "2026-07-28" (stateless, `server/discover`) or a 2025-era one (`initialize`). */
  protocol?: string;
  error?: string;
  /** stdio: the exit code of a server that died (null when a signal killed it). */
  exitCode?: number | null;
  /** stdio: the last lines the server wrote to stderr, kept for a failed status. */
  stderr?: string[];
}

/** A resource a server lists (`resources/list`). */
export interface McpResource {
  server: string;
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** A resource template a server lists (`resources/templates/list`); read one with its URI filled in. */
export interface McpResourceTemplate {
  server: string;
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** What to complete: an argument of a prompt, or a variable of a resource template. */
export type McpCompletionRequest = ({ prompt: string } | { uriTemplate: string }) & {
  argument: { name: string; value: string };
  /** Arguments already filled in, for servers whose suggestions depend on them. */
  context?: Record<string, string>;
};

/** A server's suggestions (`completion/complete`). */
export interface McpCompletion {
  values: string[];
  total?: number;
  hasMore?: boolean;
}

/** One item of a read resource: text, or base64 `blob` for binary data. */
export interface McpResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A prompt template a server lists (`prompts/list`). */
export interface McpPrompt {
  server: string;
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

/** A prompt filled in by its server, its messages flattened to text the way tool results are. */
export interface McpPromptResult {
  description?: string;
  messages: { role: "user" | "assistant"; content: string }[];
}

/** What a server said about itself at the handshake, for the system prompt. */
export interface McpInstructions {
  server: string;
  text: string;
}

export interface McpServerHandle {
  readonly name: string;
  /** Exposed (prefixed, sanitized) names of the tools this server registered. */
  toolNames(): string[];
  status(): McpServerStatus;
  /** The server's `instructions` from the handshake, when it sent any. */
  instructions(): string | undefined;
  /** Stops the server and removes its tools. */
  close(): Promise<void>;
}

export interface McpHost {
  /**
   * Starts one server and registers its tools as `<name>__<tool>`; resolves once they are listed. Rejects
   * with MCP_SERVER_FAILED when it cannot start (it stays in `status()` as `failed`, and the name may be
   * added again), MCP_CONFIG_INVALID for a bad config, MCP_SERVER_EXISTS for a name already running.
   */
  addServer(name: string, config: McpServerConfig, options?: { signal?: AbortSignal }): Promise<McpServerHandle>;
  /** Every known server, in the order they were configured or added. */
  status(): McpServerStatus[];
  /** (Re)starts a known server; one whose process died is replaced. Resolves with its new status. */
  start(name: string, options?: { signal?: AbortSignal }): Promise<McpServerStatus>;
  /** Stops a server and removes its tools; its config is kept for a later `start`. */
  stop(name: string): Promise<McpServerStatus>;
  /** Resources of every connected server (or of one), in server order. */
  resources(server?: string): Promise<McpResource[]>;
  readResource(server: string, uri: string): Promise<McpResourceContents[]>;
  /** Resource templates of every connected server (or of one), in server order. */
  resourceTemplates(server?: string): Promise<McpResourceTemplate[]>;
  /**
   * Asks the server to say when a resource changes: each change is an `mcp.resource-updated` feedback
   * event. Rejects with MCP_REQUEST_FAILED when the server offers no subscriptions.
   */
  subscribe(server: string, uri: string): Promise<void>;
  unsubscribe(server: string, uri: string): Promise<void>;
  /** Suggestions for a prompt argument or a resource template variable. */
  complete(server: string, request: McpCompletionRequest): Promise<McpCompletion>;
  /** Prompts of every connected server (or of one), in server order. */
  prompts(server?: string): Promise<McpPrompt[]>;
  getPrompt(server: string, name: string, args?: Record<string, string>): Promise<McpPromptResult>;
  /** The connected servers' `instructions`, in server order, to add to a system prompt. */
  instructions(): McpInstructions[];
  /**
   * Stops a remote server and forgets the OAuth tokens and client registration weft stored for it (its
   * next start signs in again). Resolves false when nothing was stored.
   */
  signOut(server: string): Promise<boolean>;
  /**
   * Finishes a sign-in from the authorization server's redirect (the URL the browser was sent to, or its
   * `code` and `state`), in whichever process started it: the token store keeps each sign-in in progress
   * until it expires. Then starts the server; resolves with its status.
   */
  finishSignIn(server: string, redirect: string | { code: string; state: string }): Promise<McpServerStatus>;
}
