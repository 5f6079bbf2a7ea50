import { WeftError, emptyStats } from "@weft/sdk";
import type { AssistantMessage, ChatModel, FeedbackEvent, OutputRequest, PendingAnswer, Suspension, TurnMetadata, WaitFor } from "@weft/sdk";
import type { CompactionTurnState, Compactor } from "./compaction.js";
import { LoopGuard } from "./loop-guard.js";
import type { Session } from "./session.js";
import type { PendingSlot } from "./session-state.js";
import { abandonedResult, abortedWaitingResult, requestOf } from "./suspension.js";
import { answerSlot, runRound, toolMessage, type RoundContext } from "./tool-round.js";
import { toolSpecs } from "./tool-specs.js";
import { TurnTally } from "./turn-tally.js";
import { typedAnswer, withOutput } from "./typed-answer.js";

export type AgentStatus = "done" | "pending" | "incomplete";
/** Why a turn ended `incomplete`. */
export type IncompleteReason = "max-iterations" | "repeated-tool-call";

/** What `process` and `resume` resolve to, and what ends `stream`. */
export interface AgentResponse {
  /** The text of the turn's last assistant message. */
  content: string;
  status: AgentStatus;
  metadata: TurnMetadata;
  /** With `pending`: the request the host must answer with `agent.resume(answer)`. */
  suspension?: Suspension;
  /** With `incomplete`: which limit ended the turn. */
  reason?: IncompleteReason;
  /** With `output` asked for and status `done`: the answer as a value validated against the schema. */
  output?: Record<string, unknown>;
}

export interface TurnSettings {
  /** Model rounds per turn; 0 = no limit. */
  maxIterations: number;
  parallelToolCalls: boolean;
  /** Identical consecutive calls that trip the loop guard; 0 turns it off. */
  repeatLimit: number;
}

export interface TurnDeps {
  model: ChatModel;
  session: Session;
  compactor: Compactor;
  settings: TurnSettings;
  signal: AbortSignal;
  waitFor?: WaitFor;
  /** A typed answer: see typed-answer.ts. */
  output?: OutputRequest;
  emit(event: FeedbackEvent): void;
}

export type TurnStart = { input: string } | { answer: PendingAnswer };

/** The error an aborted turn rejects with; `isAbortError` recognises it. */
export function turnAborted(reason: unknown): WeftError {
  return new WeftError("ABORTED", "the turn was aborted; every tool call in the transcript has a result, so the session can continue", { cause: reason });
}

/**
 * One `process` (or `resume`) call: model call, tool calls through the kernel's execute path, results
 * fed back, until a final answer, a limit, a suspension or an abort.
 */
export class Turn {
  readonly tally: TurnTally;
  readonly #deps: TurnDeps;
  readonly #guard: LoopGuard;
  readonly #compaction: CompactionTurnState = { spent: false, skipReported: false };
  /** Where this turn's assistant messages begin, for the response text. */
  readonly #firstMessage: number;

  /** `resuming`: the turn continues the pending one (its metadata and guard); new input starts afresh. */
  constructor(deps: TurnDeps, resuming: boolean) {
    this.#deps = deps;
    const prior = resuming ? deps.session.pending : undefined;
    this.tally = new TurnTally(prior?.metadata);
    this.#guard = new LoopGuard(deps.settings.repeatLimit, prior?.guard);
    this.#firstMessage = prior ? lastAssistantIndex(deps.session) : deps.session.history.length;
  }

  async run(start: TurnStart): Promise<AgentResponse> {
    const { session, signal } = this.#deps;
    try {
      if ("input" in start) {
        this.#abandonPending();
        session.history.push({ role: "user", content: start.input });
      } else {
        const pending = session.pending;
        const slot = pending?.slots.find((candidate) => candidate.suspension);
        if (!pending || !slot) throw new WeftError("NO_PENDING_REQUEST", "there is no pending request to answer; call process() with new input instead");
        const started = performance.now();
        await answerSlot(slot, start.answer, this.#roundContext());
        this.tally.addTools(0, performance.now() - started);
        const ended = this.#settleRound(pending.slots, pending.stop === true);
        if (ended) return ended;
      }
      return await this.#loop();
    } catch (error) {
      if (!signal.aborted) throw error;
      this.#finish("aborted");
      throw turnAborted(signal.reason);
    }
  }

  async #loop(): Promise<AgentResponse> {
    const { session, settings, emit } = this.#deps;
    while (true) {
      if (settings.maxIterations > 0 && this.tally.iterations >= settings.maxIterations) return this.#finish("incomplete", { reason: "max-iterations" });
      const reply = await this.#callModel();
      session.history.push(reply);
      const calls = reply.toolCalls ?? [];
      if (calls.length === 0) return this.#finish("done");
      if (reply.content) emit({ type: "text.interim", text: reply.content });
      const started = performance.now();
      const round = await runRound(calls, this.#roundContext());
      this.tally.addTools(calls.length, performance.now() - started);
      const ended = this.#settleRound(round.slots, round.stop);
      if (ended) return ended;
    }
  }

  async #callModel(): Promise<AssistantMessage> {
    const { model, session, compactor, signal, emit } = this.#deps;
    const { scope } = session;
    const tools = toolSpecs(scope.tools);
    session.system = await scope.buildPrompt(session.prompt);
    const compacting = compactor.beforeModelCall(session, model, tools, signal, this.#compaction);
    if (compacting) await compacting;
    const messages = session.transcript();
    const ref = `${model.provider}/${model.model}`;
    emit({ type: "model.request", model: ref, messages: messages.length, tools: tools.length });
    const prepared = await scope.prepareRequest(tools.length > 0 ? { messages, tools } : { messages }, model);
    signal.throwIfAborted();
    const started = performance.now();
    let reply: AssistantMessage | undefined;
    for await (const event of model.stream({ ...withOutput(prepared, this.#deps.output), signal })) {
      if (event.type === "text") emit({ type: "text.delta", delta: event.delta });
      else if (event.type === "reasoning") emit({ type: "reasoning.delta", delta: event.delta });
      else if (event.type === "output") emit({ type: "output.partial", partial: event.partial });
      else if (event.type === "notice") emit({ type: "model.notice", model: ref, code: event.code, message: event.message });
      else if (event.type === "done") reply = event.message;
    }
    signal.throwIfAborted();
    if (!reply) throw new WeftError("PROVIDER_ERROR", `${ref}: the stream ended without a final message`);
    const durationMs = performance.now() - started;
    const stats = reply.stats ?? emptyStats();
    this.tally.addRound(stats, reply.stopReason, durationMs);
    emit({ type: "model.response", model: ref, stats, durationMs, ...(reply.stopReason !== undefined ? { stopReason: reply.stopReason } : {}) });
    // The provider's count covers everything up to this reply; only what follows needs estimating.
    if (stats.promptTokens > 0) session.baseline = { tokens: stats.promptTokens + stats.outputTokens, messages: session.history.length + 1 };
    return reply;
  }

  /**
   * After a round: waiting slots leave the turn pending; otherwise every result goes into the
   * transcript in call order. Returns the response when the turn ends here.
   */
  #settleRound(slots: PendingSlot[], stop: boolean): AgentResponse | undefined {
    const { session, signal } = this.#deps;
    const waiting = slots.find((slot) => slot.suspension);
    if (waiting && !signal.aborted) {
      session.pending = { slots, metadata: this.tally.metadata(), guard: this.#guard.state(), ...(stop ? { stop } : {}) };
      return this.#finish("pending", { suspension: waiting.suspension });
    }
    session.pending = undefined;
    for (const slot of slots) {
      slot.message ??= toolMessage(slot.call, abortedWaitingResult(slot.call.name));
      session.history.push(slot.message);
    }
    if (signal.aborted) throw turnAborted(signal.reason);
    return stop ? this.#finish("incomplete", { reason: "repeated-tool-call" }) : undefined;
  }

  /** New input while a turn waits: the outstanding slots are answered as abandoned first. */
  #abandonPending(): void {
    const { session } = this.#deps;
    const pending = session.pending;
    if (!pending) return;
    session.pending = undefined;
    for (const slot of pending.slots) {
      session.history.push(slot.message ?? toolMessage(slot.call, slot.suspension ? abandonedResult(requestOf(slot.suspension)) : abortedWaitingResult(slot.call.name)));
    }
  }

  #roundContext(): RoundContext {
    const { session, signal, settings, waitFor, emit } = this.#deps;
    return { session: session.scope, signal, parallel: settings.parallelToolCalls, waitFor, guard: this.#guard, emit };
  }

  #finish(status: AgentStatus | "aborted", extra: { suspension?: Suspension; reason?: IncompleteReason } = {}): AgentResponse {
    const metadata = this.tally.metadata();
    this.#deps.emit({ type: "turn.finished", metadata, status });
    const response: AgentResponse = { content: this.#lastText(), status: status === "aborted" ? "incomplete" : status, metadata };
    if (extra.suspension) response.suspension = extra.suspension;
    if (extra.reason) response.reason = extra.reason;
    const output = status === "done" ? typedAnswer(this.#deps.session.history, this.#firstMessage) : undefined;
    if (output) response.output = output;
    return response;
  }

  #lastText(): string {
    const history = this.#deps.session.history;
    for (let index = history.length - 1; index >= this.#firstMessage; index--) {
      const message = history[index];
      if (message?.role === "assistant") return message.content;
    }
    return "";
  }
}

function lastAssistantIndex(session: Session): number {
  for (let index = session.history.length - 1; index >= 0; index--) if (session.history[index]?.role === "assistant") return index;
  return session.history.length;
}
