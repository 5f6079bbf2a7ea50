import { Client, ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import type { ClientOptions, Implementation } from "@modelcontextprotocol/client";
import { isRecord } from "@weft/sdk";
import type { InputRequiredResult, JSONRPCErrorResponse, JSONRPCMessage, JSONRPCRequest, JSONRPCResultResponse } from "@modelcontextprotocol/client";
import { callResultProblem } from "./call-result-shape.js";
import type { CallResult } from "./flatten-result.js";
import type { InFlightCall, SentCall } from "./in-flight-call.js";

type Response = JSONRPCResultResponse | JSONRPCErrorResponse;

/** What `tools/call` params weft sends: the tool, its arguments, weft's progress token, a retry's answers. */
export interface ToolCallParams {
  name: string;
  arguments: Record<string, unknown>;
  _meta: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The SDK's client, with two doors more.
 *
 * A response whose envelope weft has checked goes straight to the request it answers (the SDK's response
 * dispatch, `_onresponse`). Through the transport's `onmessage`, the SDK finds a message's kind by
 * zod-parsing it against each kind in turn, a copy of the message each time: at a hundred calls in one
 * reply, those copies were a tenth of everything a run allocates.
 *
 * And `tools/call` is an exchange weft runs itself (`sendToolCall`), the way the SDK's own Client runs
 * `subscriptions/listen`: its request ids are the calls' own string ids (the SDK's are numbers, so they
 * never meet), its responses consumed in `_onresponse` and everything else passed on, its calls failed
 * in `_onclose`. It reads the connection's map of calls in flight, by those ids: a call keeps no entry
 * of its own here, and no object of its own for its cancel. Through the SDK's `request`, every call
 * zod-parsed its response envelope once more (which weft has checked), armed a timer (weft's quiet-time
 * ceiling bounds the call) and validated the result asynchronously against a schema of weft's (which
 * weft checks here, at once); a tool call was the heaviest thing a run allocated. The era's wire codec
 * still decodes every result (the 2026-07-28 `resultType`, `input_required`), and the SDK's envelope
 * `_meta` still goes on every request.
 */
export class McpClient extends Client {
  /** The connection's calls in flight, by their ids (those the SDK carries too: see `_onclose`). */
  readonly #calls: ReadonlyMap<string, InFlightCall>;
  /** The cancel of every call of weft's own exchange. */
  readonly #exchange: SentCall = {
    cancel: (call, reason) => {
      if (call.done) return;
      this.notification({ method: "notifications/cancelled", params: { requestId: call.id, reason: String(reason) } }).catch((error: unknown) =>
        this.onerror?.(new Error(`Failed to send cancellation: ${error}`)),
      );
      call.failed(asSdkError(reason));
    },
  };

  constructor(info: Implementation, options: ClientOptions, calls: ReadonlyMap<string, InFlightCall>) {
    super(info, options);
    this.#calls = calls;
  }

  deliverResponse(response: Response): void {
    this._onresponse(response);
  }

  /**
   * Whether `sendToolCall` can carry a call on this connection: everywhere cancelling is a
   * `notifications/cancelled`. A 2026-07-28 session over HTTP gives each request a stream of its own,
   * cancelled by closing it, and the SDK's `request` keeps those.
   */
  get sendsToolCalls(): boolean {
    return this.getProtocolEra() !== "modern" || this.transport?.hasPerRequestStream !== true;
  }

  /**
   * Sends `tools/call` with the call's id; the call hears its result as it came (checked for the shape weft
   * reads), or an `input_required` result as the SDK's manual mode hands it back. Its cancel tells the
   * server; a close of the connection fails it.
   */
  sendToolCall(call: InFlightCall, params: ToolCallParams): SentCall {
    const transport = this.transport;
    if (!transport) {
      call.failed(new SdkError(SdkErrorCode.NotConnected, "Not connected"));
      return this.#exchange;
    }
    const envelope = this._outboundMetaEnvelope();
    const request: JSONRPCRequest = { jsonrpc: "2.0", id: call.id, method: "tools/call", params: envelope ? { ...params, _meta: { ...envelope, ...params._meta } } : params };
    transport.send(request).catch((error: unknown) => call.failed(error));
    return this.#exchange;
  }

  /** The era's reading of a result, then weft's shape check; throws what the SDK's `request` rejected with. */
  #decode(raw: unknown): CallResult | InputRequiredResult {
    const decoded = this._wireCodec().decodeResult("tools/call", raw);
    if (decoded.kind === "invalid") throw decoded.error;
    if (decoded.kind === "input_required") {
      const { inputRequests, requestState, _meta } = decoded;
      return { resultType: "input_required", inputRequests, ...(requestState === undefined ? {} : { requestState }), ...(_meta === undefined ? {} : { _meta }) } as InputRequiredResult;
    }
    const problem = callResultProblem(decoded.result);
    if (problem !== undefined) throw new SdkError(SdkErrorCode.InvalidResult, `Invalid result for tools/call: its tools/call result cannot be read: ${problem}`);
    return decoded.result as CallResult;
  }

  protected override _onresponse(response: Response): void {
    const call = typeof response.id === "string" ? this.#calls.get(response.id) : undefined;
    if (!call) {
      super._onresponse(response);
      return;
    }
    if ("error" in response) {
      call.failed(ProtocolError.fromError(response.error.code, response.error.message, response.error.data));
      return;
    }
    try {
      call.succeeded(this.#decode(response.result));
    } catch (error) {
      call.failed(error);
    }
  }

  /**
   * Fails every call in flight, once the SDK has told the connection (`onclose`) and failed its own
   * requests: for a call the SDK carries, whichever failure comes first counts, and both say the same.
   */
  protected override _onclose(): void {
    const calls = [...this.#calls.values()];
    try {
      super._onclose();
    } finally {
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");
      for (const call of calls) call.failed(closed);
    }
  }
}

/** An abort's reason as the SDK's `request` rejects with it. */
function asSdkError(reason: unknown): SdkError {
  return reason instanceof SdkError ? reason : new SdkError(SdkErrorCode.RequestTimeout, String(reason));
}

const RESULT_KEYS = new Set(["jsonrpc", "id", "result"]);
const ERROR_KEYS = new Set(["jsonrpc", "id", "error"]);

/**
 * The message as a response, when it is one exactly as the SDK's schemas have it (a strict envelope, an
 * integer or string id, a result object or an error with an integer code and a message); undefined
 * otherwise, and the SDK's own dispatch reads (and reports) it.
 */
export function responseOf(message: JSONRPCMessage): Response | undefined {
  const fields = message as Record<string, unknown>;
  if (fields.jsonrpc !== "2.0" || "method" in fields) return undefined;
  const { id } = fields;
  if (typeof id !== "string" && !Number.isInteger(id)) return undefined;
  if ("result" in fields) return isRecord(fields.result) && isRecordOrAbsent(fields.result._meta) && onlyKeys(fields, RESULT_KEYS) ? (message as Response) : undefined;
  const { error } = fields;
  if (!isRecord(error) || !Number.isInteger(error.code) || typeof error.message !== "string") return undefined;
  return onlyKeys(fields, ERROR_KEYS) ? (message as Response) : undefined;
}

function isRecordOrAbsent(value: unknown): boolean {
  return value === undefined || isRecord(value);
}

function onlyKeys(fields: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in fields) if (!allowed.has(key)) return false;
  return true;
}
