import { WeftError, errorMessage, errorResult, sanitizeToolName, stderrLogger, withCallHeaders } from "@weft/sdk";
import type {
  Disposer,
  FeedbackEvent,
  Logger,
  McpHost,
  McpCompletion,
  McpCompletionRequest,
  McpInstructions,
  McpResourceTemplate,
  McpPrompt,
  McpPromptResult,
  McpResource,
  McpResourceContents,
  McpServerConfig,
  McpServerHandle,
  McpServerState,
  McpServerStatus,
  PluginApi,
  Tool,
  ToolContext,
  ToolRegistrar,
  ToolResult,
  WaitFor,
} from "@weft/sdk";
import { parseServerEntry, resolveTransport, type McpServerSpec, type ServerTransport } from "./config.js";
import { outputChecker } from "./output-schema.js";
import { logText, type ServerNotice } from "./server-notices.js";
import { DEFAULT_RECONNECT, reconnectDelay, type ReconnectPolicy } from "./reconnect-policy.js";
import { AuthorizationRequired, ConnectError, ServerConnection, type CallShape, type McpTool } from "./server-connection.js";
import { WeftOAuthProvider, type AuthorizationRequest } from "./oauth-provider.js";
import { SignInRefused, signIn } from "./sign-in.js";
import { isRoundAnswer } from "./input-round.js";
import { resumeSignIn, type SignInRedirect } from "./resume-sign-in.js";
import { defaultTokenFile, fileTokenStore, type McpTokenStore } from "./token-store.js";

/** How long a question may wait for the host's answer when the plugin sets no `elicitationTimeoutMs`. */
export const DEFAULT_ELICITATION_TIMEOUT_MS = 600_000;

/** Sign-ins one start may ask for: a second covers a grant the server refused right after the first. */
const MAX_SIGN_INS = 2;

export interface ManagerOptions {
  /** Where tools are registered: a plugin's or scope's registrar, so they go when it closes. */
  tools: ToolRegistrar;
  logger?: Logger;
  /** Receives `mcp.status` and `mcp.tools-changed`. */
  emit?(event: FeedbackEvent): void;
  /** Whether `emit` reaches anyone now (the plugin API's `observed`); with `emit` and no `observed`, always. */
  observed?(): boolean;
  /** Relative `cwd` of servers added with `addServer` resolve from here. */
  baseDir?: string;
  /** `${VAR}` values and the stdio servers' inherited variables; `process.env` by default. */
  env?: Record<string, string | undefined>;
  /** Advertise elicitation: the host answers `pending` requests (it has a `waitFor`). */
  elicitation?: boolean;
  elicitationTimeoutMs?: number;
  /** How remote servers whose session was lost are reconnected. */
  reconnect?: Partial<ReconnectPolicy>;
  /** Headers for the requests of one call (W3C trace context, from the `traceContext` service); undefined when nothing traces it. */
  callHeaders?(call: Pick<ToolContext, "session" | "callId">): Record<string, string> | undefined;
  /** Headers for one MCP request, by its `mcp.request` key (its own span's trace context). */
  requestHeaders?(key: string): Record<string, string>;
  /** The host's resolver: asked for OAuth sign-ins (`pending` kind `authorization`). */
  waitFor?: WaitFor;
  /** Where OAuth tokens persist; a 0600 file under the user's config dir by default (`defaultTokenFile`). */
  tokenStore?: McpTokenStore;
}

export interface StartOptions {
  signal?: AbortSignal;
  /** Bounds the whole start, whatever each server's own `timeout`. */
  deadlineMs?: number;
}

interface Entry {
  spec: McpServerSpec;
  state: McpServerState;
  error?: string;
  exitCode?: number | null;
  stderr?: string[];
  connection?: ServerConnection;
  /** The server's tools after its `tools` filter, as last listed. */
  listed: McpTool[];
  /** What is in the registry now: exposed name and how to take it back. */
  registered: { name: string; dispose: Disposer }[];
  starting?: Promise<void>;
  /** Aborts a start in progress (`stop`). */
  stopping?: AbortController;
  /** Re-lists run one at a time. */
  relisting: Promise<void>;
  /** A remote server whose session was lost (`reconnecting`). */
  reconnect?: Reconnection;
  /** Its OAuth state (servers with `auth:`), kept across its connections. */
  oauth?: Promise<WeftOAuthProvider>;
}

/** A connection being opened: set as soon as it exists (for the catch of a failed list), and whether its `timeout` ended it. */
interface Opening {
  connection?: ServerConnection;
  timedOut?: boolean;
}

interface Reconnection {
  /** The attempt running now; calls join it. */
  running?: Promise<void>;
  /** Aborts the attempt running now (`stop`, a fresh `start`). */
  controller?: AbortController;
  /** Failed attempts in a row. */
  failures: number;
  /** The next attempt when no call comes first. */
  timer?: NodeJS.Timeout;
}

/**
 * The MCP servers of one host: their configs, connections, tools and status. Starts run in parallel and
 * register tools in config order; `start`, `stop` and `close` may be called concurrently (a start in
 * progress is joined, a stop aborts it). It is also the `mcp` service (McpHost) the plugin publishes.
 */
export class Manager implements McpHost {
  readonly #entries = new Map<string, Entry>();
  readonly #options: ManagerOptions;
  readonly #logger: Logger;
  readonly #reconnectPolicy: ReconnectPolicy;
  #tokenStore: McpTokenStore | undefined;
  #closed = false;

  constructor(options: ManagerOptions) {
    this.#options = options;
    this.#logger = options.logger ?? stderrLogger;
    this.#reconnectPolicy = { ...DEFAULT_RECONNECT, ...options.reconnect };
    this.#tokenStore = options.tokenStore;
  }

  /** Adds a server without starting it; a disabled one reports `disabled`. Replaces a stopped or failed entry. */
  register(spec: McpServerSpec): void {
    const existing = this.#entries.get(spec.name);
    if (existing && (existing.state === "connected" || existing.state === "starting" || existing.state === "reconnecting")) {
      throw new WeftError("MCP_SERVER_EXISTS", `MCP server "${spec.name}" is already ${existing.state}; stop it first or choose another name`);
    }
    // Re-registering keeps the server's place in the order.
    this.#entries.set(spec.name, { spec, state: spec.enabled ? "stopped" : "disabled", listed: [], registered: [], relisting: Promise.resolve() });
  }

  /** Forgets a server, stopping it first. */
  async unregister(name: string): Promise<void> {
    await this.stop(name);
    this.#entries.delete(name);
  }

  /** Starts every enabled server that is not running, in parallel; tools are registered in config order. */
  async startAll(options: StartOptions = {}): Promise<McpServerStatus[]> {
    await this.#startBatch(
      [...this.#entries.values()].filter((entry) => entry.spec.enabled),
      options,
    );
    return this.status();
  }

  /** Starts one server (a disabled one too: asking by name is explicit). A dead one is replaced. */
  async start(name: string, options: StartOptions = {}): Promise<McpServerStatus> {
    const entry = this.#entry(name);
    await this.#startBatch([entry], options);
    if (options.signal?.aborted) throw new WeftError("ABORTED", `starting MCP server "${name}" was aborted`, { cause: options.signal.reason });
    return this.#status(entry);
  }

  /** Stops a server and removes its tools; the config stays for a later `start`. */
  async stop(name: string): Promise<McpServerStatus> {
    const entry = this.#entry(name);
    entry.stopping?.abort();
    await entry.starting;
    await this.#endReconnection(entry);
    const connection = entry.connection;
    entry.connection = undefined;
    this.#unpublish(entry);
    await connection?.close();
    if (entry.state !== "disabled" || connection) this.#setState(entry, "stopped");
    return this.#status(entry);
  }

  status(): McpServerStatus[] {
    return [...this.#entries.values()].map((entry) => this.#status(entry));
  }

  async addServer(name: string, config: McpServerConfig, options: { signal?: AbortSignal } = {}): Promise<McpServerHandle> {
    this.#assertOpen();
    const spec = parseServerEntry(name, config, { baseDir: this.#options.baseDir, env: this.#options.env });
    resolveTransport(spec, this.#options.env);
    this.register(spec);
    const entry = this.#entry(name);
    if (spec.enabled) {
      const status = await this.start(name, options);
      if (status.state === "failed") {
        const stderr = status.stderr?.length ? `; last stderr lines:\n${status.stderr.slice(-5).join("\n")}` : "";
        throw new WeftError("MCP_SERVER_FAILED", `MCP server "${name}" failed to start: ${status.error}${stderr}`);
      }
    }
    return {
      name,
      toolNames: () => entry.registered.map((tool) => tool.name),
      status: () => this.#status(entry),
      instructions: () => entry.connection?.instructions,
      close: async () => {
        if (this.#entries.get(name) === entry) await this.unregister(name);
      },
    };
  }

  async resources(server?: string): Promise<McpResource[]> {
    const lists = await Promise.all(this.#connected(server).map(async ([name, connection]) => (await connection.resources()).map((resource) => ({ server: name, ...resource }))));
    return lists.flat();
  }

  async resourceTemplates(server?: string): Promise<McpResourceTemplate[]> {
    const lists = await Promise.all(
      this.#connected(server).map(async ([name, connection]) => (await connection.resourceTemplates()).map((template) => ({ server: name, ...template }))),
    );
    return lists.flat();
  }

  async subscribe(server: string, uri: string): Promise<void> {
    await this.#connection(server).subscribe(uri, true);
  }

  async unsubscribe(server: string, uri: string): Promise<void> {
    await this.#connection(server).subscribe(uri, false);
  }

  async complete(server: string, request: McpCompletionRequest): Promise<McpCompletion> {
    return this.#connection(server).complete(request);
  }

  async readResource(server: string, uri: string): Promise<McpResourceContents[]> {
    return this.#connection(server).readResource(uri);
  }

  async prompts(server?: string): Promise<McpPrompt[]> {
    const lists = await Promise.all(this.#connected(server).map(async ([name, connection]) => (await connection.prompts()).map((prompt) => ({ server: name, ...prompt }))));
    return lists.flat();
  }

  async getPrompt(server: string, name: string, args?: Record<string, string>): Promise<McpPromptResult> {
    return this.#connection(server).getPrompt(name, args);
  }

  instructions(): McpInstructions[] {
    return this.#connected().flatMap(([server, connection]) => (connection.instructions ? [{ server, text: connection.instructions }] : []));
  }

  async signOut(name: string): Promise<boolean> {
    const entry = this.#entry(name);
    const transport = resolveTransport(entry.spec, this.#options.env);
    if (transport.kind === "stdio") throw new WeftError("MCP_REQUEST_FAILED", `MCP server "${name}" is a local (stdio) server: it has no sign-in`);
    await this.stop(name);
    entry.oauth = undefined;
    return this.#tokens().delete(new URL(transport.url).href);
  }

  async finishSignIn(name: string, redirect: SignInRedirect): Promise<McpServerStatus> {
    const entry = this.#entry(name);
    const transport = resolveTransport(entry.spec, this.#options.env);
    const oauth = await this.#oauth(entry, transport);
    if (!oauth || transport.kind === "stdio") throw new WeftError("MCP_REQUEST_FAILED", `MCP server "${name}" has no "auth" entry: there is no sign-in to finish`);
    await resumeSignIn(oauth, transport.url, name, redirect);
    return this.start(name);
  }

  /** Stops every server; idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.allSettled([...this.#entries.keys()].map((name) => this.stop(name)));
  }

  /** Connects the entries in parallel; each registers its tools once every entry before it has. */
  async #startBatch(entries: Entry[], options: StartOptions): Promise<void> {
    this.#assertOpen();
    const deadline = options.deadlineMs === undefined ? undefined : AbortSignal.timeout(options.deadlineMs);
    let previous: Promise<unknown> = Promise.resolve();
    const runs = entries.map((entry) => {
      if (entry.starting) return entry.starting;
      if (entry.state === "connected" && entry.connection && !entry.connection.lost) return Promise.resolve();
      const turn = previous;
      const run = (async () => {
        const connection = await this.#connect(entry, { signal: options.signal, deadline, deadlineMs: options.deadlineMs });
        await turn;
        if (connection && entry.connection === connection && !connection.lost) this.#publish(entry, connection);
      })();
      entry.starting = run.finally(() => (entry.starting = undefined));
      // One entry's unexpected failure must not hold back the entries after it.
      previous = entry.starting.catch(() => undefined);
      return entry.starting;
    });
    await Promise.all(runs);
  }

  /** Opens the connection and lists the tools; on failure the entry says why and nothing is left running. */
  async #connect(entry: Entry, bounds: { signal?: AbortSignal; deadline?: AbortSignal; deadlineMs?: number }): Promise<ServerConnection | undefined> {
    const { spec } = entry;
    // Everything up to the first await happens at once, so a `stop` or `status` right after sees the start.
    const previous = entry.connection;
    entry.connection = undefined;
    this.#unpublish(entry);
    Object.assign(entry, { error: undefined, exitCode: undefined, stderr: undefined });
    const stopping = new AbortController();
    entry.stopping = stopping;
    this.#setState(entry, "starting");
    await this.#endReconnection(entry);
    await previous?.close().catch(() => {});

    const stops = [stopping.signal, bounds.deadline, bounds.signal].filter((signal): signal is AbortSignal => signal !== undefined);
    const opening: Opening = {};
    try {
      const { connection, tools } = await this.#openListed(entry, stops, opening, (opened) => (entry.connection = opened));
      entry.listed = this.#filter(spec, tools, true, connection.runsTasks);
      return connection;
    } catch (error) {
      const connection = opening.connection;
      // Died while listing: `#lost` has already said so.
      if (connection?.lost) return undefined;
      entry.connection = undefined;
      const stderr = connection?.stderrTail() ?? (error instanceof ConnectError ? error.stderr : undefined);
      await connection?.close();
      if (stopping.signal.aborted) {
        this.#setState(entry, "stopped");
        return undefined;
      }
      const reason = opening.timedOut
        ? `did not connect and list its tools within ${spec.timeoutMs} ms (its "timeout")`
        : bounds.deadline?.aborted
          ? `was not ready before the MCP start deadline (${bounds.deadlineMs} ms)`
          : bounds.signal?.aborted
            ? "its start was aborted"
            : errorMessage(error);
      Object.assign(entry, { error: reason, stderr });
      this.#setState(entry, "failed");
      this.#logger.warn(`MCP server "${spec.name}" failed to start: ${reason}`);
      return undefined;
    } finally {
      if (entry.stopping === stopping) entry.stopping = undefined;
    }
  }

  /**
   * Opens a connection and lists its tools (`onOpen` sees the connection before it lists). A server may
   * refuse the handshake or only the listing until the user signs in: each sign-in (at most MAX_SIGN_INS)
   * goes to the host's `waitFor`, and the server's `timeout` starts again after it, since the user's time
   * is not the server's connect time. `opening.timedOut` says whether that timeout ended it.
   */
  async #openListed(entry: Entry, stops: AbortSignal[], opening: Opening, onOpen?: (connection: ServerConnection) => void): Promise<{ connection: ServerConnection; tools: McpTool[] }> {
    for (let round = 1; ; round++) {
      const timeout = AbortSignal.timeout(entry.spec.timeoutMs);
      const signal = AbortSignal.any([timeout, ...stops]);
      try {
        const connection = opening.connection ?? (await this.#open(entry, signal, opening));
        onOpen?.(connection);
        return { connection, tools: await connection.listTools(signal) };
      } catch (error) {
        opening.timedOut = timeout.aborted;
        if (!(error instanceof AuthorizationRequired) || round > MAX_SIGN_INS) throw error;
        await error.finish(await this.#signIn(entry, error.request, undefined, AbortSignal.any(stops)));
      }
    }
  }

  /** A new connection for the entry; `opening.connection` is set as soon as it exists, for the catch of a failed list. */
  async #open(entry: Entry, signal: AbortSignal, opening: Opening = {}): Promise<ServerConnection> {
    const { spec } = entry;
    const transport = resolveTransport(spec, this.#options.env);
    const oauth = await this.#oauth(entry, transport);
    const connection = await ServerConnection.open(
      {
        server: spec.name,
        transport,
        oauth,
        signIn: (request, call, signal) => this.#signIn(entry, request, call, signal),
        env: this.#options.env ?? process.env,
        toolTimeoutMs: spec.toolTimeoutMs,
        maxResultBytes: spec.maxResultBytes,
        logLevel: spec.logLevel,
        onNotice: (notice) => this.#notice(entry, notice),
        requestTimeoutMs: spec.timeoutMs,
        elicitation: this.#options.elicitation ?? false,
        elicitationTimeoutMs: this.#options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS,
        logger: this.#logger,
        onToolsChanged: () => opening.connection && this.#relist(entry, opening.connection),
        onLost: () => opening.connection && this.#lost(entry, opening.connection),
        requests: {
          emit: (event) => this.#emit(event),
          observed: () => this.#options.emit !== undefined && (this.#options.observed?.() ?? true),
          traceHeaders: (key) => this.#options.requestHeaders?.(key) ?? {},
        },
      },
      signal,
    );
    opening.connection = connection;
    return connection;
  }

  /** The entry's OAuth provider (servers with `auth:`), opened once and kept across its connections. */
  async #oauth(entry: Entry, transport: ServerTransport): Promise<WeftOAuthProvider | undefined> {
    if (transport.kind === "stdio" || !transport.auth) return undefined;
    entry.oauth ??= WeftOAuthProvider.open(transport.url, transport.auth, this.#tokens(), this.#signInTimeoutMs());
    return entry.oauth.catch((error: unknown) => {
      entry.oauth = undefined;
      throw error;
    });
  }

  #signInTimeoutMs(): number {
    return this.#options.elicitationTimeoutMs ?? DEFAULT_ELICITATION_TIMEOUT_MS;
  }

  /** The user's sign-in through the host's `waitFor`, bounded like a server's question. */
  async #signIn(entry: Entry, request: AuthorizationRequest, call: { callId: string; toolName: string } | undefined, signal: AbortSignal): Promise<string> {
    try {
      return await signIn({ server: entry.spec.name, request, waitFor: this.#options.waitFor, ...(call ? { call } : {}), signal, timeoutMs: this.#signInTimeoutMs() });
    } catch (error) {
      // A link nobody was shown, or the user declined, must not be finished later by another process.
      if (error instanceof SignInRefused) await (await entry.oauth)?.forget(request.state);
      throw error;
    }
  }

  #tokens(): McpTokenStore {
    this.#tokenStore ??= fileTokenStore(defaultTokenFile(this.#options.env ?? process.env));
    return this.#tokenStore;
  }

  /**
   * A tool call. A resumed call (an answer) goes to the connection that asked; a new call to a server that
   * is reconnecting joins (or starts) the attempt; a call the server's lost session refused is sent again,
   * once, over the new session.
   */
  #call(entry: Entry, connection: ServerConnection, tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape): Promise<ToolResult> {
    // A held question lives on the connection that asked; a 2026-07-28 round's answer goes to any (it is stateless).
    if (ctx.answer && !isRoundAnswer(ctx)) return connection.call(tool, args, ctx, shape);
    // A local server has no session to lose: its result is the call's, with no layer to wait in between.
    if (entry.spec.transport.kind === "stdio" && entry.state !== "reconnecting") return (entry.connection ?? connection).call(tool, args, ctx, shape);
    return this.#remoteCall(entry, connection, tool, args, ctx, shape);
  }

  /** A remote server's call: it waits for a reconnection in progress, and is sent again once if the session was gone. */
  async #remoteCall(entry: Entry, connection: ServerConnection, tool: string, args: Record<string, unknown>, ctx: ToolContext, shape: CallShape): Promise<ToolResult> {
    let current = entry.connection ?? connection;
    if (entry.state === "reconnecting") {
      const ready = await this.#reconnectNow(entry);
      if (!ready) return this.#unreachable(entry, tool);
      current = ready;
    }
    const result = await current.call(tool, args, ctx, shape);
    if (result.metadata?.sessionGone !== true || ctx.signal.aborted) return result;
    const ready = await this.#reconnectNow(entry);
    return ready ? ready.call(tool, args, ctx, shape) : this.#unreachable(entry, tool);
  }

  #unreachable(entry: Entry, tool: string): ToolResult {
    const next = entry.state === "reconnecting" ? "weft tries again on the next call" : "start it again";
    return errorResult(`MCP server "${entry.spec.name}" cannot run ${tool}: ${entry.error ?? `it is ${entry.state}`}; ${next}`, {
      server: entry.spec.name,
      tool,
      serverLost: true,
    });
  }

  /**
   * The connection once the entry is reconnected: joins the attempt running, or runs one now (a call does
   * not wait out the backoff, which paces the attempts nobody waits for); undefined when it stays unreachable.
   */
  async #reconnectNow(entry: Entry): Promise<ServerConnection | undefined> {
    const reconnect = entry.reconnect;
    if (reconnect) this.#attempt(entry, reconnect);
    await reconnect?.running;
    return entry.state === "connected" && entry.connection?.open ? entry.connection : undefined;
  }

  /** Schedules the next reconnection attempt after the backoff of the failures so far. */
  #schedule(entry: Entry, reconnect: Reconnection): void {
    const delay = reconnectDelay(this.#reconnectPolicy, reconnect.failures);
    clearTimeout(reconnect.timer);
    reconnect.timer = setTimeout(() => this.#attempt(entry, reconnect), delay);
    // A server that stays away must not keep the process alive.
    reconnect.timer.unref();
  }

  /** One reconnection attempt: a new handshake, the tools listed again and swapped in. */
  #attempt(entry: Entry, reconnect: Reconnection): void {
    if (reconnect.running || entry.reconnect !== reconnect) return;
    clearTimeout(reconnect.timer);
    const stopping = new AbortController();
    reconnect.controller = stopping;
    reconnect.running = (async () => {
      const opening: Opening = {};
      try {
        // A server that now wants a sign-in (its grant expired or was revoked) asks the host, as at a start.
        const { connection, tools } = await this.#openListed(entry, [stopping.signal], opening);
        if (entry.reconnect !== reconnect || connection.lost) throw new Error("the new session ended at once");
        entry.reconnect = undefined;
        entry.connection = connection;
        entry.listed = this.#filter(entry.spec, tools, false, connection.runsTasks);
        entry.error = undefined;
        const before = entry.registered.map((tool) => tool.name);
        this.#publish(entry, connection);
        const after = entry.registered.map((tool) => tool.name);
        const added = after.filter((name) => !before.includes(name));
        const removed = before.filter((name) => !after.includes(name));
        if (added.length > 0 || removed.length > 0) this.#emit({ type: "mcp.tools-changed", server: entry.spec.name, added, removed });
        this.#logger.info(`MCP server "${entry.spec.name}" is connected again`);
      } catch (error) {
        await opening.connection?.close();
        if (entry.reconnect !== reconnect || stopping.signal.aborted) return;
        reconnect.failures++;
        const reason = opening.timedOut ? `did not reconnect within ${entry.spec.timeoutMs} ms (its "timeout")` : errorMessage(error);
        // A sign-in this host cannot ask for, or the user refused: another attempt would not change that.
        const signInFailed = error instanceof WeftError && error.code === "MCP_AUTH_FAILED";
        if (signInFailed || reconnect.failures >= this.#reconnectPolicy.attempts) {
          entry.reconnect = undefined;
          entry.error = signInFailed ? reason : `lost its connection and could not reconnect (${reconnect.failures} attempts; the last: ${reason})`;
          const removed = entry.registered.map((tool) => tool.name);
          this.#unpublish(entry);
          this.#logger.warn(`MCP server "${entry.spec.name}" ${signInFailed ? `cannot reconnect: ${reason}` : entry.error}; its tools were removed`);
          this.#setState(entry, "failed");
          if (removed.length > 0) this.#emit({ type: "mcp.tools-changed", server: entry.spec.name, added: [], removed });
          return;
        }
        entry.error = `cannot reconnect (attempt ${reconnect.failures}: ${reason})`;
        this.#setState(entry, "reconnecting");
        this.#schedule(entry, reconnect);
      } finally {
        reconnect.running = undefined;
        reconnect.controller = undefined;
      }
    })();
  }

  /** Stops reconnecting (a stop or a fresh start takes over), waiting for an attempt in progress to end. */
  async #endReconnection(entry: Entry): Promise<void> {
    const reconnect = entry.reconnect;
    if (!reconnect) return;
    entry.reconnect = undefined;
    clearTimeout(reconnect.timer);
    reconnect.controller?.abort();
    await reconnect.running;
  }

  /** Registers the listed tools as `<server>__<tool>`, sanitized against every other server's names. */
  #publish(entry: Entry, connection: ServerConnection): void {
    const taken = new Set([...this.#entries.values()].filter((other) => other !== entry).flatMap((other) => other.registered.map((tool) => tool.name)));
    const previous = entry.registered;
    entry.registered = entry.listed.map((tool) => {
      const name = sanitizeToolName(`${entry.spec.name}__${tool.name}`, taken);
      return { name, dispose: this.#options.tools.add(this.#weftTool(entry, connection, tool, name)) };
    });
    // New before old: a name present in both never disappears from the registry in between.
    for (const tool of previous) void tool.dispose();
    this.#setState(entry, "connected");
  }

  #unpublish(entry: Entry): void {
    for (const tool of entry.registered.splice(0)) void tool.dispose();
  }

  #weftTool(entry: Entry, connection: ServerConnection, tool: McpTool, name: string): Tool {
    const { spec } = entry;
    const annotations = { title: tool.title ?? tool.annotations?.title, ...tool.annotations };
    const hints = Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined));
    // A tool that supports tasks runs as one where the server can run tasks (task-only tools are offered only there).
    const asTask = tool.execution?.taskSupport === "required" || (tool.execution?.taskSupport === "optional" && connection.runsTasks);
    const shape: CallShape = { checkOutput: outputChecker(tool.outputSchema), asTask };
    return {
      name,
      description: tool.description ?? tool.title ?? "",
      inputSchema: { ...tool.inputSchema, type: "object" },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      source: { kind: "mcp", id: spec.name },
      ...(Object.keys(hints).length > 0 ? { annotations: hints } : {}),
      // The quiet-time ceiling (`toolTimeout`) restarts on progress; `callTimeout` is the hard bound the
      // execute path holds the call to: at `ctx.deadline` it is cancelled on the server and says so.
      timeoutMs: spec.callTimeoutMs,
      execute: (args, ctx) => {
        const headers = this.#options.callHeaders?.(ctx);
        // The scope's closure only for a traced call: an untraced one runs straight.
        if (headers) return withCallHeaders(headers, () => this.#call(entry, connection, tool.name, args, ctx, shape));
        return this.#call(entry, connection, tool.name, args, ctx, shape);
      },
    };
  }

  /** `notifications/tools/list_changed`: re-list and swap; a failed re-list keeps the old tools. */
  #relist(entry: Entry, connection: ServerConnection): void {
    entry.relisting = entry.relisting.then(async () => {
      if (entry.connection !== connection || connection.lost) return;
      let tools: McpTool[];
      try {
        tools = await connection.listTools();
      } catch (error) {
        if (!connection.open) return;
        this.#logger.warn(`MCP server "${entry.spec.name}" changed its tools, but listing them again failed (the old ones stay): ${errorMessage(error)}`);
        return;
      }
      if (entry.connection !== connection || connection.lost) return;
      entry.listed = this.#filter(entry.spec, tools, false, connection.runsTasks);
      if (entry.state !== "connected") return;
      const before = entry.registered.map((tool) => tool.name);
      this.#publish(entry, connection);
      const after = entry.registered.map((tool) => tool.name);
      const added = after.filter((name) => !before.includes(name));
      const removed = before.filter((name) => !after.includes(name));
      if (added.length > 0 || removed.length > 0) this.#emit({ type: "mcp.tools-changed", server: entry.spec.name, added, removed });
    });
  }

  /** The server died (or its stream closed): its tools go, its status says how it ended. */
  #lost(entry: Entry, connection: ServerConnection): void {
    if (entry.connection !== connection) return;
    entry.connection = undefined;
    if (entry.spec.transport.kind !== "stdio" && !this.#closed) {
      // A remote server comes back: its tools stay, and the next call (or the timer) reconnects.
      entry.error = connection.exit.description;
      this.#logger.warn(`MCP server "${entry.spec.name}" lost its connection (${entry.error}); reconnecting`);
      this.#setState(entry, "reconnecting");
      const reconnect: Reconnection = { failures: 0 };
      entry.reconnect = reconnect;
      this.#schedule(entry, reconnect);
      void connection.close();
      return;
    }
    const removed = entry.registered.map((tool) => tool.name);
    this.#unpublish(entry);
    const { exitCode, stderr, description } = connection.exit;
    Object.assign(entry, { error: description, exitCode, stderr });
    this.#logger.warn(`MCP server "${entry.spec.name}" ${description}; its tools were removed`);
    this.#setState(entry, "failed");
    if (removed.length > 0) this.#emit({ type: "mcp.tools-changed", server: entry.spec.name, added: [], removed });
    void connection.close();
  }

  /** A server's log message goes to the logger at its level and to feedback; list changes and updates to feedback. */
  #notice(entry: Entry, notice: ServerNotice): void {
    const server = entry.spec.name;
    if (notice.kind === "log") {
      const text = `mcp ${server}${notice.logger ? ` (${notice.logger})` : ""}: ${logText(notice.data)}`;
      const level = notice.level === "debug" ? "debug" : notice.level === "info" || notice.level === "notice" ? "info" : notice.level === "warning" ? "warn" : "error";
      this.#logger[level](text);
      this.#emit({ type: "mcp.log", server, level: notice.level, ...(notice.logger === undefined ? {} : { logger: notice.logger }), data: notice.data });
    } else if (notice.kind === "resource-updated") {
      this.#emit({ type: "mcp.resource-updated", server, uri: notice.uri });
    } else {
      this.#emit({ type: `mcp.${notice.kind}`, server });
    }
  }

  /** Applies the entry's `tools` allow/drop list; names that match nothing are reported once. */
  #filter(spec: McpServerSpec, listed: McpTool[], warn: boolean, runsTasks: boolean): McpTool[] {
    // A tool that only runs as an MCP task cannot run on a server that says it runs no tasks: it is not offered.
    const tools = runsTasks ? listed : listed.filter((tool) => tool.execution?.taskSupport !== "required");
    if (warn && tools.length < listed.length) {
      const names = listed.filter((tool) => !tools.includes(tool)).map((tool) => `"${tool.name}"`);
      this.#logger.info(`MCP server "${spec.name}": ${names.join(", ")} run only as MCP tasks, and the server declares no task support for tools/call; not offered`);
    }
    const filter = spec.tools;
    if (!filter) return tools;
    if (warn) {
      const published = new Set(tools.map((tool) => tool.name));
      const unknown = [...(filter.allow ?? []), ...filter.deny].filter((name) => !published.has(name));
      if (unknown.length > 0) {
        this.#logger.warn(`MCP server "${spec.name}": "tools" names ${unknown.map((name) => `"${name}"`).join(", ")}, which the server does not publish`);
      }
    }
    return tools.filter((tool) => (!filter.allow || filter.allow.includes(tool.name)) && !filter.deny.includes(tool.name));
  }

  #status(entry: Entry): McpServerStatus {
    const status: McpServerStatus = { name: entry.spec.name, state: entry.state, tools: entry.registered.length };
    const protocol = entry.state === "connected" ? entry.connection?.protocolVersion : undefined;
    if (protocol !== undefined) status.protocol = protocol;
    if (entry.error !== undefined) status.error = entry.error;
    if (entry.state === "failed") {
      if (entry.exitCode !== undefined) status.exitCode = entry.exitCode;
      if (entry.stderr && entry.stderr.length > 0) status.stderr = entry.stderr;
    }
    return status;
  }

  #setState(entry: Entry, state: McpServerState): void {
    entry.state = state;
    const event: FeedbackEvent = { type: "mcp.status", server: entry.spec.name, state, tools: entry.registered.length };
    const protocol = state === "connected" ? entry.connection?.protocolVersion : undefined;
    if (protocol !== undefined) event.protocol = protocol;
    if (entry.error !== undefined && state === "failed") event.error = entry.error;
    this.#emit(event);
  }

  #emit(event: FeedbackEvent): void {
    this.#options.emit?.(event);
  }

  #entry(name: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) {
      const known = [...this.#entries.keys()];
      throw new WeftError("MCP_SERVER_UNKNOWN", `no MCP server named "${name}"; known servers: ${known.length > 0 ? known.join(", ") : "(none)"}`);
    }
    return entry;
  }

  #connected(server?: string): [string, ServerConnection][] {
    if (server !== undefined) return [[server, this.#connection(server)]];
    return [...this.#entries.values()].flatMap((entry) => (entry.connection && entry.state === "connected" ? [[entry.spec.name, entry.connection] as [string, ServerConnection]] : []));
  }

  #connection(server: string): ServerConnection {
    const entry = this.#entry(server);
    if (!entry.connection || entry.state !== "connected") {
      throw new WeftError("MCP_SERVER_UNAVAILABLE", `MCP server "${server}" is ${entry.state}${entry.error ? ` (${entry.error})` : ""}; start it first`);
    }
    return entry.connection;
  }

  #assertOpen(): void {
    if (this.#closed) throw new WeftError("MCP_SERVER_UNAVAILABLE", "this MCP manager is closed; create a new one");
  }
}


/**
 * A Manager wired to a plugin or kernel scope: tools go to its registrar (and are removed when it is
 * disposed), warnings to its logger, events to its feedback, relative paths from its base folder.
 * The CLI: `const manager = mcpManager(kernel.scope("mcp-cli"))`.
 */
export function mcpManager(api: PluginApi, options: Pick<ManagerOptions, "env" | "elicitation" | "elicitationTimeoutMs" | "reconnect" | "tokenStore"> = {}): Manager {
  return new Manager({
    ...options,
    tools: api.tools,
    logger: api.logger,
    emit: (event) => api.emit(event),
    observed: () => api.observed(),
    baseDir: api.baseDir,
    waitFor: api.waitFor,
    callHeaders: (call) => (api.has("traceContext") ? api.need("traceContext").headers({ sessionId: call.session?.id, callId: call.callId }) : undefined),
    requestHeaders: (key) => (api.has("traceContext") ? api.need("traceContext").requestHeaders(key) : {}),
  });
}
