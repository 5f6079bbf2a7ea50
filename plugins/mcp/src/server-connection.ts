import { ProtocolError, SSEClientTransport, SdkError, SdkErrorCode, StreamableHTTPClientTransport, UnauthorizedError, UrlElicitationRequiredError } from "@modelcontextprotocol/client";
import type { ClientCapabilities, McpSubscription, Tool as McpTool, ServerCapabilities, SubscriptionFilter, Transport } from "@modelcontextprotocol/client";
import { AbortFanout, WeftError, deadlinePassed, errorMessage, errorResult } from "@weft/sdk";
import type { Logger, McpCompletion, McpCompletionRequest, McpResourceTemplate, McpPrompt, McpPromptResult, McpResource, McpResourceContents, ToolContext, ToolResult } from "@weft/sdk";
import { childEnvironment } from "./child-env.js";
import type { McpLogLevel, ServerTransport } from "./config.js";
import { routeNotices, type ServerNotice } from "./server-notices.js";
import { ElicitationBridge, elicitResult, pendingRequest, urlRequiredRequest, type ElicitationTicket } from "./elicitation-bridge.js";
import { callResultShape } from "./call-result-shape.js";
import { flattenBlock, toToolResult, type ContentBlock } from "./flatten-result.js";
import { InFlightCall, type CallOutcome, type SentCall } from "./in-flight-call.js";
import { describeHandshakeFailure } from "./handshake-failure.js";
import { answerRound, isInputRequired, openRound, roundRequest, type InputRound, type RoundTicket } from "./input-round.js";
import type { AuthorizationRequest, WeftOAuthProvider } from "./oauth-provider.js";
import { describeRemoteFailure, isLegacyServerAnswer, isSessionGone, isStreamBreak, remoteTransports } from "./remote-transport.js";
import { QuietClock } from "./quiet-clock.js";
import { StdioTransport } from "./stdio-transport.js";
import { limitResult } from "./result-limit.js";
import { StreamAttribution } from "./stream-attribution.js";
import { callAsTask } from "./task-call.js";
import { reportRequests, type RequestReporting } from "./request-reports.js";
import { McpClient, responseOf, type ToolCallParams } from "./mcp-client.js";

/** The client weft introduces itself as. */
export const CLIENT_INFO = { name: "weft", version: "0.1.0" };

/** Requests are bounded by our own signals and ceilings; the SDK's 60 s default must never cut in first. */
const NO_SDK_TIMEOUT = 2_147_483_647;
/** How long a ping may take to prove a remote session alive after one of its streams broke. */
const PROBE_TIMEOUT_MS = 3_000;
/** How long `close` waits for the server to acknowledge the session's DELETE. */
const DELETE_TIMEOUT_MS = 2_000;
/**
 * How long a stdio server may take to answer the `server/discover` probe before weft takes it for a
 * 2025-era server and sends `initialize` (on the same pipe). A server still starting up when it expires
 * is spoken to in the 2025 era: it works, without the 2026-07-28 features.
 */
const STDIO_PROBE_MS = 10_000;
/** Rounds of one call that carry only the server's state (no question), sent again at once: beyond, the call fails. */
const MAX_STATE_ROUNDS = 10;
/** A listen stream that ends sooner than this after it opened ended "at once"; after this many in a row, weft stops. */
const LISTEN_QUICK_END_MS = 5_000;
const LISTEN_QUICK_ENDS = 3;
/** The longest list cache hint weft honours (the SDK's own ceiling, 24 h). */
const MAX_TTL_MS = 86_400_000;

export type { McpTool };

export interface ConnectionOptions {
  server: string;
  transport: ServerTransport;
  /** The host's environment, filtered for a stdio child. */
  env: Record<string, string | undefined>;
  toolTimeoutMs: number;
  /** The most text one result gives the model. */
  maxResultBytes: number;
  /** The ceiling of every request that is not a tool call (listing, resources, prompts): the server's `timeout`. */
  requestTimeoutMs: number;
  /** Advertise elicitation (the host can answer `pending` requests). */
  elicitation: boolean;
  elicitationTimeoutMs: number;
  logger: Logger;
  /** The least severe log message to ask the server for (when it can log). */
  logLevel: McpLogLevel;
  /** The server said its tool list changed. */
  onToolsChanged(): void;
  /** A log message, a prompt or resource list change, a resource update. */
  onNotice(notice: ServerNotice): void;
  /** The connection ended without `close()` being called: the process died or the stream closed. */
  onLost(): void;
  /** A remote server's OAuth (its `auth:`), shared by the connections the server has over time. */
  oauth?: WeftOAuthProvider;
  /** The user's sign-in a tool call ran into (a step-up of scopes, a grant that expired): the authorization code. */
  signIn?(request: AuthorizationRequest, call: { callId: string; toolName: string }, signal: AbortSignal): Promise<string>;
  /** Where every request sent is reported (`mcp.request` / `mcp.response`) and its trace context comes from. */
  requests?: RequestReporting;
}

/** How a tool is called: its outputSchema check, and whether as an MCP task. */
export interface CallShape {
  checkOutput?: (value: unknown) => string[];
  asTask?: boolean;
}

/** A failed connect, with what a stdio server left on stderr. */
export class ConnectError extends Error {
  constructor(
    message: string,
    readonly stderr: string[] | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The handshake stopped at the user's sign-in (OAuth authorization code grant): `finish(code)` exchanges
 * the code for tokens, after which a new connection goes through.
 */
export class AuthorizationRequired extends ConnectError {
  constructor(
    readonly request: AuthorizationRequest,
    readonly finish: (code: string) => Promise<void>,
    options: { cause: unknown },
  ) {
    super("the server needs the user to sign in (OAuth)", undefined, options);
  }
}

/** One live MCP session with one server: its client, transport, tool list and calls. */
export class ServerConnection {
  readonly #options: ConnectionOptions;
  readonly #bridge: ElicitationBridge;
  readonly #attribution = new StreamAttribution();
  #client!: McpClient;
  #transport!: Transport;
  #closing = false;
  #lost = false;
  /** Why a remote session was given up (`exit.description`). */
  #lostReason: string | undefined;
  #probing = false;
  #ready = false;
  /** 2026-07-28: the `subscriptions/listen` stream for list changes and subscribed resources. */
  #listening: McpSubscription | undefined;
  /** Listen streams in a row that ended right after they opened. */
  #quickEnds = 0;
  /** The resources subscribed to (2026-07-28 carries them in the listen filter). */
  readonly #subscribed = new Set<string>();
  /** Refetches the tool list when its `ttlMs` cache hint runs out. */
  #toolsExpiry: NodeJS.Timeout | undefined;
  /**
   * The calls in flight, oldest first, by their ids (each call's progress token, and its request id on
   * weft's own exchange): the one map of them the connection's parts read (progress routing, the
   * elicitation bridge, the quiet clock, the client's exchange).
   */
  readonly #calls = new Map<string, InFlightCall>();
  /** The quiet-time ceilings of the calls in flight. */
  readonly #quiet = new QuietClock(this.#calls);
  /** The signals of the executes waiting for calls in flight, one listener each. */
  readonly #aborts = new AbortFanout();
  #lastCall = 0;

  private constructor(options: ConnectionOptions) {
    this.#options = options;
    this.#bridge = new ElicitationBridge(options.elicitationTimeoutMs, this.#calls);
  }

  /**
   * Connects (stdio, or Streamable HTTP falling back to legacy SSE) and completes the handshake. `signal`
   * bounds it all; on failure everything started is closed again and the error says what happened.
   */
  static async open(options: ConnectionOptions, signal: AbortSignal): Promise<ServerConnection> {
    const connection = new ServerConnection(options);
    await connection.#connect(signal);
    return connection;
  }

  get capabilities(): ServerCapabilities {
    return this.#client.getServerCapabilities() ?? {};
  }

  get instructions(): string | undefined {
    return this.#client.getInstructions() || undefined;
  }

  /** The protocol version negotiated: 2026-07-28 (`server/discover`) or a 2025-era one (`initialize`). */
  get protocolVersion(): string | undefined {
    return this.#client.getNegotiatedProtocolVersion();
  }

  /** Whether this connection speaks the stateless 2026-07-28 protocol (and its multi-round-trip requests). */
  get modern(): boolean {
    return this.#client.getProtocolEra() === "modern";
  }

  /**
   * Whether the server runs `tools/call` as MCP tasks (its `tasks.requests.tools.call` capability). Tasks
   * are the 2025-11-25 protocol's: the SDK refuses `tasks/*` toward a 2026-07-28 server.
   */
  get runsTasks(): boolean {
    return !this.modern && Boolean(this.capabilities.tasks?.requests?.tools?.call);
  }

  /** Connected, and neither closed nor lost. */
  get open(): boolean {
    return this.#ready && !this.#closing && !this.#lost;
  }

  /** Whether the connection ended on its own (see `onLost`). */
  get lost(): boolean {
    return this.#lost;
  }

  /** stdio: how the process ended and its last stderr lines. */
  get exit(): { exitCode?: number | null; stderr?: string[]; description: string } {
    const transport = this.#transport;
    if (!(transport instanceof StdioTransport)) return { description: this.#lostReason ?? "the connection closed" };
    const exit = transport.exit;
    const description = !exit ? "the connection closed" : exit.code !== null ? `exited with code ${exit.code}` : `was killed by ${exit.signal}`;
    return { exitCode: exit?.code ?? null, stderr: transport.stderrTail(), description };
  }

  /** stdio: the last stderr lines so far. */
  stderrTail(): string[] | undefined {
    return this.#transport instanceof StdioTransport ? this.#transport.stderrTail() : undefined;
  }

  /**
   * Every tool (all pages), or none when the server declared no `tools` capability. Always asked anew:
   * weft lists when it needs a fresh list (start, a change, the cache hint run out). A `ttlMs` hint on the
   * list schedules the next listing (`onToolsChanged`) for when it runs out.
   */
  async listTools(signal?: AbortSignal): Promise<McpTool[]> {
    if (!this.capabilities.tools) return [];
    try {
      const listed = await this.#client.listTools(undefined, { signal, timeout: this.#options.requestTimeoutMs, cacheMode: "refresh" });
      this.#expireTools((listed as { ttlMs?: unknown }).ttlMs);
      return listed.tools;
    } catch (error) {
      throw this.#signInNeeded(error) ?? error;
    }
  }

  #expireTools(ttlMs: unknown): void {
    clearTimeout(this.#toolsExpiry);
    this.#toolsExpiry = undefined;
    if (typeof ttlMs !== "number" || !(ttlMs > 0) || this.#closing) return;
    this.#toolsExpiry = setTimeout(() => this.open && this.#options.onToolsChanged(), Math.min(ttlMs, MAX_TTL_MS));
    // A cache hint must not keep the process alive.
    this.#toolsExpiry.unref();
  }

  /** A request the server refused until the user signs in (again, or for more scopes), as the manager handles it. */
  #signInNeeded(error: unknown): AuthorizationRequired | undefined {
    const request = error instanceof UnauthorizedError ? this.#options.oauth?.takeAuthorizationRequest() : undefined;
    const finish = finishAuthOf(this.#transport);
    return request && finish ? new AuthorizationRequired(request, finish, { cause: error }) : undefined;
  }

  /**
   * Runs a tool, or resumes one that asked a question (`ctx.answer`). Never throws: a failure, a timeout,
   * an abort or the server's death is an error result the model reads.
   */
  call(tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape = {}): Promise<ToolResult> {
    return this.#call(tool, args, ctx, shape, false);
  }

  #call(tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape, signedIn: boolean): Promise<ToolResult> {
    const call = this.#callToFollow(tool, args, ctx, shape);
    if (!(call instanceof InFlightCall)) return Promise.resolve(call);
    return call.next(ctx).then((outcome) => this.#ended(tool, args, ctx, shape, signedIn, outcome, 0));
  }

  /**
   * What the execute returns for its call's outcome, after `rounds` sent again for the server's state.
   * What sends the call again (a state round, a sign-in) goes on in async methods of its own: a call in
   * flight holds no async frame, only the `then` on its `next` (an async `#call` cost two promises and
   * the frame more, for every call).
   */
  #ended(tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape, signedIn: boolean, outcome: CallOutcome, rounds: number): ToolResult | Promise<ToolResult> {
    const { server } = this.#options;
    if (outcome.kind === "result" && isInputRequired(outcome.result) && !outcome.result.inputRequests) {
      // A round that carries only the server's state (no question) is sent back at once.
      if (rounds >= MAX_STATE_ROUNDS) return errorResult(`MCP server "${server}" asked for ${tool} to be sent again ${MAX_STATE_ROUNDS} times without asking anything; weft stopped`, { server, tool });
      return this.#sendState(tool, args, ctx, shape, signedIn, outcome.result.requestState, rounds + 1);
    }
    const signInNeeded = outcome.kind === "failed" ? this.#signInNeeded(outcome.error) : undefined;
    // The server refused the call until the user grants more (or again): nothing ran, so it runs once more after.
    if (signInNeeded && !signedIn && !ctx.answer) return this.#signInAndCall(signInNeeded, tool, args, ctx, shape);
    if (outcome.kind === "failed" && this.#options.transport.kind !== "stdio" && isSessionGone(outcome.error)) {
      // Nothing ran: the manager may send the call again over a new session.
      const reason = describeRemoteFailure(outcome.error, this.#options.transport.url);
      this.#lose(reason);
      return errorResult(`MCP server "${server}" cannot run ${tool}: ${reason}`, { server, tool, sessionGone: true });
    }
    return this.#toResult(tool, outcome, ctx.signal, shape.checkOutput);
  }

  /** Sends the call again with the server's state (a round that asked nothing), as a new request. */
  async #sendState(tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape, signedIn: boolean, requestState: string | undefined, rounds: number): Promise<ToolResult> {
    const outcome = await this.#start(tool, args, shape, { inputResponses: {}, requestState }).next(ctx);
    return this.#ended(tool, args, ctx, shape, signedIn, outcome, rounds);
  }

  /** The user's sign-in the call ran into, then the call once more. */
  async #signInAndCall(signInNeeded: AuthorizationRequired, tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape): Promise<ToolResult> {
    const { server } = this.#options;
    try {
      await signInNeeded.finish(await this.#signIn(signInNeeded.request, { callId: ctx.callId, toolName: tool }, ctx.signal));
    } catch (error) {
      return errorResult(`MCP server "${server}" cannot run ${tool}: ${errorMessage(error)}`, { server, tool });
    }
    return this.#call(tool, args, ctx, shape, true);
  }

  /**
   * The call an execute follows: a new one, or the one its answer resumes; or, when there is none to
   * follow, the result at once (the next question of a round, a question no longer waiting, a server not
   * running). Kept out of the async `#call`, whose frame every call in flight holds.
   */
  #callToFollow(tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape): InFlightCall | ToolResult {
    const { server } = this.#options;
    const ticket = ctx.pending?.data as Partial<ElicitationTicket & RoundTicket> | undefined;
    if (ctx.answer && ticket?.round) {
      // A round of a 2026-07-28 multi-round-trip call: the next question, or the retry with the answers.
      const step = answerRound(ticket.round, ctx.answer);
      if ("questions" in step) return this.#ask(tool, step);
      if (this.#lost || this.#closing) return errorResult(`MCP server "${server}" is not running (${this.exit.description}); start it again`);
      return this.#start(tool, args, shape, step);
    }
    if (ctx.answer && !ticket?.retry) {
      const entry = this.#bridge.take(ticket?.token);
      if (!entry) {
        return errorResult(`the question MCP server "${server}" asked during ${tool} is no longer waiting for an answer (the call ended, or the question expired); run the tool again`);
      }
      entry.held.answer(elicitResult(ctx.answer, ticket?.mode));
      return entry.call;
    }
    // The server refused the call until the user had visited a page (-32042): run it again, or say why not.
    if (ctx.answer && ctx.answer.action !== "accept") return errorResult(`${tool} needs the user to complete a step at ${ctx.pending?.url ?? "a web page"} first, and they did not (${ctx.answer.action})`, { server, tool });
    if (this.#lost || this.#closing) return errorResult(`MCP server "${server}" is not running (${this.exit.description}); start it again`);
    return this.#start(tool, args, shape);
  }

  /**
   * Sends `tools/call` and follows it: `retry` carries a multi-round-trip call's answers and the server's
   * state (2026-07-28), on a new request, as the spec has it.
   */
  #start(tool: string, args: Record<string, unknown>, shape: CallShape, retry?: { inputResponses: Record<string, unknown>; requestState?: string }): InFlightCall {
    const call = new InFlightCall(`weft-call:${++this.#lastCall}`, this.#options.toolTimeoutMs, this.#calls, this.#quiet, this.#aborts);
    const params: ToolCallParams = { name: tool, arguments: args, _meta: { progressToken: call.id }, ...retry };
    call.sent(this.#send(params, shape, call));
    return call;
  }

  /**
   * Sends a call's `tools/call`: weft's own exchange wherever it can carry the call, the SDK's request (or an
   * MCP task) elsewhere; only those follow a signal. Not `callTool`: weft checks structuredContent against
   * the outputSchema itself, and a mismatch is a warning the model's result carries, where `callTool` would
   * fail the call. weft reads and checks the result itself (`callResultShape`), and an `input_required`
   * answer comes back as it is: weft asks its host between turns.
   */
  #send(params: ToolCallParams, shape: CallShape, call: InFlightCall): SentCall {
    if (!shape.asTask && this.#client.sendsToolCalls) return this.#client.sendToolCall(call, params);
    const controller = new AbortController();
    const { signal } = controller;
    const result = shape.asTask
      ? callAsTask(this.#client, params, { signal, onprogress: (progress) => call.progress(progress), requestTimeoutMs: this.#options.requestTimeoutMs })
      : this.#client.request({ method: "tools/call", params }, callResultShape, { signal, timeout: NO_SDK_TIMEOUT, allowInputRequired: true });
    result.then(
      (answer) => call.succeeded(answer),
      (error: unknown) => call.failed(error),
    );
    return { cancel: (_call, reason) => controller.abort(reason) };
  }

  /** The pending result for a round's current question. */
  #ask(tool: string, round: InputRound): ToolResult {
    const { server } = this.#options;
    const pending = roundRequest(server, round);
    if (!pending) return errorResult(`MCP server "${server}" asked ${tool} a question weft lost`, { server, tool });
    return { output: `MCP server "${server}" asks: ${pending.message}`, pending, metadata: { server, tool } };
  }

  async resources(): Promise<Omit<McpResource, "server">[]> {
    if (!this.capabilities.resources) return [];
    // The SDK serves a list from its cache while the server's `ttlMs` hint says it is fresh.
    const { resources } = await this.#request(() => this.#client.listResources(undefined, { timeout: this.#options.requestTimeoutMs }));
    return resources.map(({ uri, name, title, description, mimeType }) => defined({ uri, name, title, description, mimeType }));
  }

  async readResource(uri: string): Promise<McpResourceContents[]> {
    const result = await this.#request(() => this.#client.readResource({ uri }, { timeout: this.#options.requestTimeoutMs }));
    return result.contents.map((item) =>
      defined({ uri: item.uri, mimeType: item.mimeType, text: "text" in item ? this.#limit(item.text as string) : undefined, blob: "blob" in item ? (item.blob as string) : undefined }),
    );
  }

  async prompts(): Promise<Omit<McpPrompt, "server">[]> {
    if (!this.capabilities.prompts) return [];
    const { prompts } = await this.#request(() => this.#client.listPrompts(undefined, { timeout: this.#options.requestTimeoutMs }));
    return prompts.map(({ name, title, description, arguments: parameters }) =>
      defined({ name, title, description, arguments: parameters?.map(({ name, description, required }) => defined({ name, description, required })) }),
    );
  }

  async getPrompt(name: string, args: Record<string, string> = {}): Promise<McpPromptResult> {
    const result = await this.#request(() => this.#client.getPrompt({ name, arguments: args }, { timeout: this.#options.requestTimeoutMs }));
    return defined({
      description: result.description,
      messages: result.messages.map((message) => ({ role: message.role, content: this.#limit(flattenBlock(message.content as ContentBlock)) })),
    });
  }

  /** A prompt message's or resource's text, cut to the server's `maxResultBytes` like a tool result: it goes to a model too. */
  #limit(text: string): string {
    return limitResult(text, this.#options.maxResultBytes)?.text ?? text;
  }

  /** Closes the session; a stdio server's whole process group is stopped. Held questions are cancelled. */
  async close(): Promise<void> {
    if (this.#closing) return;
    const live = this.open;
    this.#closing = true;
    clearTimeout(this.#toolsExpiry);
    this.#bridge.close();
    try {
      if (live) await this.#listening?.close();
      if (live) await this.#endSession();
      await this.#client.close();
    } finally {
      await this.#transport.close().catch(() => {});
      this.#quiet.close();
    }
  }

  #signIn(request: AuthorizationRequest, call: { callId: string; toolName: string }, signal: AbortSignal): Promise<string> {
    const signIn = this.#options.signIn;
    if (!signIn) throw new WeftError("MCP_AUTH_FAILED", "the server asks the user to sign in, and this host cannot ask");
    return signIn(request, call, signal);
  }

  /** Asks for the configured log level; a server that refuses it keeps logging as it likes. */
  async #setLogLevel(signal: AbortSignal): Promise<void> {
    try {
      await this.#client.setLoggingLevel(this.#options.logLevel, { signal, timeout: this.#options.requestTimeoutMs });
    } catch (error) {
      this.#options.logger.debug(`mcp ${this.#options.server}: logging/setLevel ${this.#options.logLevel} failed: ${errorMessage(error)}`);
    }
  }

  async resourceTemplates(): Promise<Omit<McpResourceTemplate, "server">[]> {
    if (!this.capabilities.resources) return [];
    const { resourceTemplates: templates } = await this.#request(() => this.#client.listResourceTemplates(undefined, { timeout: this.#options.requestTimeoutMs }));
    return templates.map(({ uriTemplate, name, title, description, mimeType }) => defined({ uriTemplate, name, title, description, mimeType }));
  }

  async subscribe(uri: string, subscribed: boolean): Promise<void> {
    const { server } = this.#options;
    if (!this.capabilities.resources?.subscribe) throw new WeftError("MCP_REQUEST_FAILED", `MCP server "${server}" does not offer resource subscriptions`);
    if (this.modern) {
      // 2026-07-28 has no resources/subscribe: the listen stream's filter names the resources.
      if (subscribed) this.#subscribed.add(uri);
      else this.#subscribed.delete(uri);
      await this.#request(() => this.#listen());
      return;
    }
    const options = { timeout: this.#options.requestTimeoutMs };
    await this.#request(() => (subscribed ? this.#client.subscribeResource({ uri }, options) : this.#client.unsubscribeResource({ uri }, options)));
  }

  /**
   * 2026-07-28: opens the `subscriptions/listen` stream for every list the server says changes, and the
   * subscribed resources; its notifications reach the same handlers as 2025-era ones. A new filter
   * replaces the stream (the old one closes once the new one is acknowledged); a stream the server or the
   * network ends while the connection lives is opened again.
   */
  async #listen(signal?: AbortSignal): Promise<void> {
    const { capabilities } = this;
    const filter: SubscriptionFilter = {
      ...(capabilities.tools?.listChanged ? { toolsListChanged: true } : {}),
      ...(capabilities.prompts?.listChanged ? { promptsListChanged: true } : {}),
      ...(capabilities.resources?.listChanged ? { resourcesListChanged: true } : {}),
      ...(this.#subscribed.size > 0 ? { resourceSubscriptions: [...this.#subscribed] } : {}),
    };
    const previous = this.#listening;
    this.#listening = undefined;
    if (Object.keys(filter).length > 0) {
      const subscription = await this.#client.listen(filter, { ...(signal ? { signal } : {}), timeout: this.#options.requestTimeoutMs });
      this.#listening = subscription;
      const opened = Date.now();
      void subscription.closed.then((how) => {
        if (how === "local" || this.#listening !== subscription || !this.open) return;
        // A stream that keeps ending at once is not opened forever.
        this.#quickEnds = Date.now() - opened < LISTEN_QUICK_END_MS ? this.#quickEnds + 1 : 0;
        const { server, logger } = this.#options;
        if (this.#quickEnds >= LISTEN_QUICK_ENDS) {
          logger.warn(`MCP server "${server}": its subscriptions/listen stream ended ${LISTEN_QUICK_ENDS} times right after it opened; weft stops listening (its list changes are missed until it is started again)`);
          return;
        }
        logger.debug(`mcp ${server}: the subscriptions/listen stream ended (${how}); listening again`);
        this.#listen().catch((error: unknown) => logger.warn(`MCP server "${server}": listening for changes again failed: ${errorMessage(error)}`));
      });
    }
    await previous?.close();
  }

  async complete(request: McpCompletionRequest): Promise<McpCompletion> {
    const { server } = this.#options;
    if (!this.capabilities.completions) throw new WeftError("MCP_REQUEST_FAILED", `MCP server "${server}" does not offer completions`);
    const ref = "prompt" in request ? { type: "ref/prompt" as const, name: request.prompt } : { type: "ref/resource" as const, uri: request.uriTemplate };
    const result = await this.#request(() =>
      this.#client.complete(
        { ref, argument: request.argument, ...(request.context ? { context: { arguments: request.context } } : {}) },
        { timeout: this.#options.requestTimeoutMs },
      ),
    );
    return defined({ values: result.completion.values, total: result.completion.total, hasMore: result.completion.hasMore });
  }

  /** Streamable HTTP: tells the server the session is over (`DELETE`), so it frees it now, not at its expiry. */
  async #endSession(): Promise<void> {
    const transport = this.#transport;
    if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, DELETE_TIMEOUT_MS)));
    await Promise.race([transport.terminateSession().catch(() => {}), bound]);
    clearTimeout(timer);
  }

  /**
   * The remote session is gone (the server restarted or went down): calls in flight fail at once with
   * "connection lost" (closing the client rejects them) and the manager is told, to reconnect.
   */
  #lose(reason: string): void {
    if (this.#lost || this.#closing || !this.#ready) return;
    this.#lost = true;
    this.#lostReason = reason;
    this.#options.onLost();
    void this.close();
  }

  /** A stream of a remote session broke: a ping says whether the session is still there. */
  #probe(): void {
    if (this.#probing || !this.open) return;
    this.#probing = true;
    const { transport } = this.#options;
    this.#client
      .ping({ timeout: PROBE_TIMEOUT_MS })
      .then(
        () => {},
        (error: unknown) => this.#lose(transport.kind === "stdio" ? errorMessage(error) : describeRemoteFailure(error, transport.url)),
      )
      .finally(() => (this.#probing = false));
  }

  async #connect(signal: AbortSignal): Promise<void> {
    const { transport } = this.#options;
    const attempts: (() => Transport)[] = transport.kind === "stdio" ? [() => this.#stdioTransport()] : remoteTransports(transport, this.#attribution.fetch, this.#options.oauth);
    for (const [index, make] of attempts.entries()) {
      this.#client = this.#newClient();
      this.#transport = make();
      if (this.#options.requests) reportRequests(this.#transport, this.#options.server, transport, this.#options.requests);
      try {
        await this.#handshake(signal);
        this.#routeIncoming(this.#transport);
        this.#ready = true;
        if (this.capabilities.logging && !this.modern) await this.#setLogLevel(signal);
        if (this.modern) await this.#listen(signal);
        return;
      } catch (error) {
        await this.#transport.close().catch(() => {});
        const signInNeeded = this.#signInNeeded(error);
        if (signInNeeded) throw signInNeeded;
        if (index < attempts.length - 1 && isLegacyServerAnswer(error) && !signal.aborted) continue;
        throw new ConnectError(this.#describe(error), this.stderrTail(), { cause: error });
      }
    }
  }

  /**
   * The handshake, negotiated: a `server/discover` probe first, then the 2026-07-28 protocol where the
   * server offers it, the 2025 `initialize` otherwise (the SDK's `auto` mode, on the same connection). A
   * stdio server that exits on the probe (some 2025-era servers stop at any request before `initialize`)
   * is started again and spoken to in the 2025 era straight away.
   */
  async #handshake(signal: AbortSignal): Promise<void> {
    try {
      await this.#client.connect(this.#transport, { signal, timeout: NO_SDK_TIMEOUT });
    } catch (error) {
      if (!(this.#transport instanceof StdioTransport) || !closedDuringProbe(error) || signal.aborted) throw error;
      this.#options.logger.debug(`mcp ${this.#options.server}: the server ended the connection at the server/discover probe; starting it again for the 2025 handshake`);
      await this.#transport.close().catch(() => {});
      this.#client = this.#newClient();
      this.#transport = this.#stdioTransport();
      await this.#client.connect(this.#transport, { signal, timeout: NO_SDK_TIMEOUT, prior: { kind: "legacy" } });
    }
  }

  /**
   * Progress notifications go straight to their call, in stream order. Left to the SDK, a notification that
   * arrives in the same chunk as the result is dispatched a tick later and finds its handler gone. A
   * well-formed response goes straight to its request (see McpClient); everything else to the SDK.
   */
  #routeIncoming(transport: Transport): void {
    const deliver = transport.onmessage;
    const client = this.#client;
    transport.onmessage = (message, extra) => {
      const response = responseOf(message);
      if (response) {
        client.deliverResponse(response);
        return;
      }
      if ("method" in message && message.method === "notifications/progress" && !("id" in message)) {
        const { progressToken, progress, total, message: text } = (message.params ?? {}) as { progressToken?: unknown; progress: number; total?: number; message?: string };
        const call = this.#calls.get(String(progressToken));
        if (call) {
          call.progress(defined({ progress, total, message: text }));
          return;
        }
      }
      deliver?.(message, extra);
    };
  }

  #stdioTransport(): StdioTransport {
    const { transport } = this.#options;
    if (transport.kind !== "stdio") throw new Error("not a stdio server");
    return new StdioTransport({
      command: transport.command,
      args: transport.args,
      cwd: transport.cwd,
      env: childEnvironment(this.#options.env, transport.inheritEnv, transport.env),
      onStderrLine: (line) => this.#options.logger.debug(`mcp ${this.#options.server} stderr: ${line}`),
    });
  }

  #newClient(): McpClient {
    const capabilities: ClientCapabilities = this.#options.elicitation ? { elicitation: { form: { applyDefaults: true }, url: {} } } : {};
    const client = new McpClient(
      CLIENT_INFO,
      {
        capabilities,
        // Probe with server/discover; 2026-07-28 where the server offers it, the 2025 handshake otherwise.
        versionNegotiation: { mode: "auto", ...(this.#options.transport.kind === "stdio" ? { probe: { timeoutMs: STDIO_PROBE_MS } } : {}) },
        // `input_required` results come back to weft, which asks its host between turns (input-round.ts).
        inputRequired: { autoFulfill: false },
      },
      this.#calls,
    );
    if (this.#options.elicitation) {
      client.setRequestHandler("elicitation/create", (request, ctx) => this.#bridge.handle(request.params, ctx.mcpReq.signal, this.#attribution.callOf(ctx.mcpReq.id)));
    }
    client.setNotificationHandler("notifications/tools/list_changed", () => this.#options.onToolsChanged());
    routeNotices(client, (notice) => this.#options.onNotice(notice));
    client.onclose = () => {
      // A handshake that fails (or a transport given up for the SSE fallback) is reported by `open`.
      if (!this.#ready || this.#closing || this.#lost || this.#client !== client) return;
      this.#lost = true;
      this.#bridge.close();
      this.#options.onLost();
    };
    // Transport hiccups (a non-JSON line on stdout, a dropped SSE stream being resumed) are not fatal by
    // themselves; a broken remote stream is checked, since a dead server would otherwise leave calls open.
    client.onerror = (error) => {
      this.#options.logger.debug(`mcp ${this.#options.server}: ${errorMessage(error)}`);
      if (this.#client === client && this.#options.transport.kind !== "stdio" && isStreamBreak(error)) this.#probe();
    };
    return client;
  }

  #describe(error: unknown): string {
    const transport = this.#transport;
    // The SDK closes the transport when the handshake fails: a death we caused says nothing about the server.
    if (transport instanceof StdioTransport && transport.exit && !transport.stoppedByClose) return `${this.exit.description} during the handshake`;
    return describeHandshakeFailure(error, this.#options.transport.kind === "stdio" ? undefined : this.#options.transport.url);
  }

  #toResult(tool: string, outcome: CallOutcome, signal: AbortSignal, checkOutput?: (value: unknown) => string[]): ToolResult {
    const { server } = this.#options;
    const origin = { server, tool };
    if (outcome.kind === "result" && isInputRequired(outcome.result)) {
      const round = openRound(outcome.result, this.#options.elicitation);
      if ("problem" in round) return errorResult(`MCP server "${server}" cannot finish ${tool}: ${round.problem}`, origin);
      return this.#ask(tool, round);
    }
    if (outcome.kind === "result") return toToolResult(outcome.result, origin, { maxResultBytes: this.#options.maxResultBytes, checkOutput });
    if (outcome.kind === "elicitation") {
      const pending = pendingRequest(server, outcome.elicitation);
      return { output: `MCP server "${server}" asks: ${pending.message}`, pending, metadata: origin };
    }
    if (outcome.kind === "failed" && outcome.error instanceof UrlElicitationRequiredError) {
      const pending = urlRequiredRequest(server, outcome.error);
      if (pending) return { output: `MCP server "${server}" asks: ${pending.message}`, pending, metadata: origin };
    }
    if (outcome.timedOut) {
      return errorResult(
        `MCP server "${server}" went quiet: ${tool} sent no result and no progress for ${this.#options.toolTimeoutMs} ms (its toolTimeout), so the call was cancelled`,
        { ...origin, timedOut: true },
      );
    }
    if (signal.aborted && deadlinePassed(signal)) {
      return errorResult(`MCP server "${server}": ${tool} did not finish within the call's time limit, so weft cancelled it on the server`, { ...origin, timedOut: true });
    }
    if (signal.aborted) return errorResult(`${tool} was aborted`, { ...origin, aborted: true });
    if (this.#lost) {
      const next = this.#options.transport.kind === "stdio" ? "its tools are unavailable until it is started again" : "weft reconnects on the next call";
      return errorResult(`MCP server "${server}": connection lost during ${tool} (${this.exit.description}); ${next}`, { ...origin, serverLost: true });
    }
    const { transport } = this.#options;
    const message =
      outcome.error instanceof ProtocolError ? outcome.error.message : transport.kind === "stdio" ? errorMessage(outcome.error) : describeRemoteFailure(outcome.error, transport.url);
    return errorResult(`MCP server "${server}" failed to run ${tool}: ${message}`, origin);
  }

  /** A request of the plugin's API (not a tool call): failures are typed errors naming the server. */
  async #request<T>(run: () => Promise<T>): Promise<T> {
    const { server } = this.#options;
    if (this.#lost || this.#closing) throw new WeftError("MCP_SERVER_UNAVAILABLE", `MCP server "${server}" is not running; start it first`);
    try {
      return await run();
    } catch (error) {
      throw new WeftError("MCP_REQUEST_FAILED", `MCP server "${server}": ${errorMessage(error)}`, { cause: error });
    }
  }
}

/** The SDK's verdict for a stdio server that ended the connection at the `server/discover` probe. */
function closedDuringProbe(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed && /connection closed during the server\/discover probe/.test(error.message);
}

/** The remote transport's code-for-tokens exchange (it knows the server's resource metadata and scope). */
function finishAuthOf(transport: Transport): ((code: string) => Promise<void>) | undefined {
  if (transport instanceof StreamableHTTPClientTransport || transport instanceof SSEClientTransport) return (code) => transport.finishAuth(code);
  return undefined;
}

/** Drops undefined fields, so results compare and print cleanly. */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as T;
}
