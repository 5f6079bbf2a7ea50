import { Client, ProtocolError, SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { isRecord } from "@weft/sdk";
import type { InputRequiredResult, JSONRPCErrorResponse, JSONRPCMessage, JSONRPCRequest, JSONRPCResultResponse } from "@modelcontextprotocol/client";
import { callResultProblem } from "./call-result-shape.js";
import type { CallResult } from "./flatten-result.js";
import type { CallEnd, SentCall } from "./in-flight-call.js";

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
 * `subscriptions/listen`: string ids from a counter of its own (the SDK's are numbers, so they never
 * meet), its responses consumed in `_onresponse` and everything else passed on, its calls failed in
 * `_onclose`. Through the SDK's `request`, every call zod-parsed its response envelope once more (which
 * weft has checked), armed a timer (weft's quiet-time ceiling bounds the call) and validated the result
 * asynchronously against a schema of weft's (which weft checks here, at once); a tool call was the
 * heaviest thing a run allocated. The era's wire codec still decodes every result (the 2026-07-28
 * `resultType`, `input_required`), and the SDK's envelope `_meta` still goes on every request.
 */
export class McpClient extends Client {
  /** The `tools/call` exchanges in flight, by their ids. */
  readonly #toolCalls = new Map<string, OwnedToolCall>();
  #lastToolCall = 0;
  /** An owned call's cancel, one function for all of them. */
  readonly #cancelToolCall = (call: OwnedToolCall, reason: unknown): void => {
    if (!this.#toolCalls.delete(call.id)) return;
    this.notification({ method: "notifications/cancelled", params: { requestId: call.id, reason: String(reason) } }).catch((error: unknown) =>
      this.onerror?.(new Error(`Failed to send cancellation: ${error}`)),
    );
    call.end.failed(asSdkError(reason));
  };

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
   * Sends `tools/call`; `end` hears its result as it came (checked for the shape weft reads), or an
   * `input_required` result as the SDK's manual mode hands it back. Its cancel tells the server; a close
   * of the connection fails it.
   */
  sendToolCall(params: ToolCallParams, end: CallEnd): SentCall {
    const call = new OwnedToolCall(`weft-call:${++this.#lastToolCall}`, end, this.#cancelToolCall);
    const transport = this.transport;
    if (!transport) {
      call.end.failed(new SdkError(SdkErrorCode.NotConnected, "Not connected"));
      return call;
    }
    const envelope = this._outboundMetaEnvelope();
    const request: JSONRPCRequest = { jsonrpc: "2.0", id: call.id, method: "tools/call", params: envelope ? { ...params, _meta: { ...envelope, ...params._meta } } : params };
    this.#toolCalls.set(call.id, call);
    transport.send(request).catch((error: unknown) => {
      this.#toolCalls.delete(call.id);
      call.end.failed(error);
    });
    return call;
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
    const call = typeof response.id === "string" ? this.#toolCalls.get(response.id) : undefined;
    if (!call) {
      super._onresponse(response);
      return;
    }
    this.#toolCalls.delete(call.id);
    if ("error" in response) {
      call.end.failed(ProtocolError.fromError(response.error.code, response.error.message, response.error.data));
      return;
    }
    try {
      call.end.succeeded(this.#decode(response.result));
    } catch (error) {
      call.end.failed(error);
    }
  }

  protected override _onclose(): void {
    const calls = [...this.#toolCalls.values()];
    this.#toolCalls.clear();
    try {
      super._onclose();
    } finally {
      const closed = new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed");
      for (const call of calls) call.end.failed(closed);
    }
  }
}

/** One `tools/call` of weft's own exchange: ended by its response, a failed send, the close, or its cancel. */
class OwnedToolCall implements SentCall {
  constructor(
    readonly id: string,
    readonly end: CallEnd,
    private readonly onCancel: (call: OwnedToolCall, reason: unknown) => void,
  ) {}

  cancel(reason: unknown): void {
    this.onCancel(this, reason);
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
