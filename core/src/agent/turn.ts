import { randomUUID } from "node:crypto";
import { WeftError, emptyStats } from "@weft/sdk";
import type { AssistantMessage, ChatModel, FeedbackEvent, OutputRequest, PendingAnswer, StepInfo, Suspension, ToolMessage, TurnMetadata, WaitFor } from "@weft/sdk";
import type { Compactor } from "./compaction.js";
import { LoopGuard } from "./loop-guard.js";
import type { Session } from "./session.js";
import { abandonPending, resumePending } from "./pending-turn.js";
import type { PendingSlot } from "./session-state.js";
import { abortedWaitingResult } from "./suspension.js";
import { runRound, toolMessage, type RoundContext } from "./tool-round.js";
import { applyStepPlan } from "./step-plan.js";
import { toolSpecs } from "./tool-specs.js";
import { overLimitResult, TurnLimits, type AgentLimits, type LimitHit } from "./turn-limits.js";
import { TurnTally } from "./turn-tally.js";
import type { WriteAhead } from "./write-ahead.js";
import { withOutput } from "./typed-answer.js";

export type AgentStatus = "done" | "pending" | "incomplete" | "limit";
/** Why a turn ended `incomplete`. */
export type IncompleteReason = "max-iterations" | "repeated-tool-call" | "stop-condition";

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
  /** With `limit`: the budget that ended the turn. */
  limit?: LimitHit;
  /** With reason `stop-condition`: what the `stopWhen` tap said. */
  stoppedBy?: string;
  /** With `output` asked for and status `done`: the answer as a value validated against the schema. */
  output?: Record<string, unknown>;
}

export interface TurnSettings {
  /** Model rounds per turn; 0 = no limit. */
  maxIterations: number;
  parallelToolCalls: boolean;
  /** Identical consecutive calls that trip the loop guard; 0 turns it off. */
  repeatLimit: number;
  limits: AgentLimits;
}

export interface TurnDeps {
  model: ChatModel;
  session: Session;
  compactor: Compactor;
  settings: TurnSettings;
  signal: AbortSignal;
  waitFor?: WaitFor;
  writeAhead: WriteAhead;
  /** A typed answer: see typed-answer.ts. */
  output?: OutputRequest;
  emit(event: FeedbackEvent): void;
}

/** New input, or `resume`: with the host's answer, or without one to continue an interrupted turn. */
export type TurnStart = { input: string } | { answer: PendingAnswer | undefined };

/** The error an aborted turn rejects with; `isAbortError` recognises it. */
function turnAborted(reason: unknown): WeftError {
  return new WeftError("ABORTED", "the turn was aborted; every tool call in the transcript has a result, so the session can continue", { cause: reason });
}

/**
 * One `process` (or `resume`) call: model call, tool calls through the kernel's execute path, results
 * fed back, until a final answer, a limit, a suspension or an abort.
 */
export class Turn {
  readonly tally: TurnTally;
  readonly turnId: string;
  readonly #deps: TurnDeps;
  readonly #guard: LoopGuard;
  readonly #limits: TurnLimits;
  /** Where this turn's assistant messages begin, for the response text. */
  readonly #firstMessage: number;
  /** The turn's latest reply: a compaction mid-turn moves the messages, so `#firstMessage` alone would miss it. */
  #lastReply: AssistantMessage | undefined;

  /** `resuming`: the turn continues the pending one (its metadata and guard); new input starts afresh. */
  constructor(deps: TurnDeps, resuming: boolean) {
    this.#deps = deps;
    const prior = resuming ? deps.session.pending : undefined;
    this.tally = new TurnTally(prior?.metadata);
    this.turnId = prior?.turnId ?? randomUUID();
    this.#guard = new LoopGuard(deps.settings.repeatLimit, prior?.guard);
    this.#limits = new TurnLimits(deps.settings.limits, deps.session.usage, this.tally.metadata());
    this.#firstMessage = prior ? lastAssistantIndex(deps.session) : deps.session.history.length;
  }

  async run(start: TurnStart): Promise<AgentResponse> {
    const { session, signal } = this.#deps;
    try {
      if ("input" in start) {
        await this.#abandonPending();
        const message = { role: "user" as const, content: start.input };
        session.append(message);
        await this.#deps.writeAhead.record({ kind: "user", turnId: this.turnId, message });
      } else {
        const started = performance.now();
        const pending = await resumePending(session.pending, start.answer, this.#roundContext());
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
      const reached = this.#limits.reached(this.tally);
      if (reached) return this.#finish("limit", { limit: reached });
      const reply = await this.#callModel();
      session.append(reply);
      this.#lastReply = reply;
      // Stored before any of its calls runs: a crash from here on knows which calls were made.
      await this.#deps.writeAhead.record({ kind: "assistant", turnId: this.turnId, message: reply });
      const calls = reply.toolCalls ?? [];
      if (calls.length === 0) return this.#finish("done");
      if (reply.content) emit({ type: "text.interim", text: reply.content });
      const { left, hit } = this.#limits.toolCallsLeft(this.tally);
      const runnable = calls.slice(0, left);
      const started = performance.now();
      const round = await runRound(runnable, this.#roundContext());
      this.tally.addTools(runnable.length, performance.now() - started);
      // Calls past a tool-call limit are answered unrun, so every call keeps its result.
      const slots = [...round.slots, ...calls.slice(left).map((call) => ({ call, message: toolMessage(call, overLimitResult(call.name, hit as LimitHit)) }))];
      const ended = this.#settleRound(slots, round.stop);
      if (ended) return ended;
      if (runnable.length < calls.length) return this.#finish("limit", { limit: hit });
      const stoppedBy = await session.scope.stopWhen(this.#step());
      if (stoppedBy !== undefined) return this.#finish("incomplete", { reason: "stop-condition", stoppedBy });
    }
  }

  async #callModel(): Promise<AssistantMessage> {
    const { model, session, compactor, signal, emit } = this.#deps;
    const { scope } = session;
    const tools = toolSpecs(scope.tools);
    session.system = await scope.buildPrompt(session.prompt);
    const compacting = compactor.beforeModelCall(session, model, tools, signal);
    if (compacting) await compacting;
    const plan = await scope.prepareStep({ messages: session.transcript() }, this.#step());
    const { messages } = plan;
    const offered = plan.tools ? tools.filter((tool) => plan.tools?.includes(tool.name)) : tools;
    const restore = applyStepPlan(model, plan);
    const ref = `${model.provider}/${model.model}`;
    let reply: AssistantMessage | undefined;
    const started = performance.now();
    try {
      emit({ type: "model.request", model: ref, messages: messages.length, tools: offered.length });
      const prepared = await scope.prepareRequest(offered.length > 0 ? { messages, tools: offered } : { messages }, model);
      signal.throwIfAborted();
      for await (const event of model.stream({ ...withOutput(prepared, this.#deps.output), signal })) {
        if (event.type === "text") emit({ type: "text.delta", delta: event.delta });
        else if (event.type === "reasoning") emit({ type: "reasoning.delta", delta: event.delta });
        else if (event.type === "output") emit({ type: "output.partial", partial: event.partial });
        else if (event.type === "notice") emit({ type: "model.notice", model: ref, code: event.code, message: event.message });
        else if (event.type === "done") reply = event.message;
      }
    } finally {
      restore();
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
      session.pending = { slots, metadata: this.tally.metadata(), guard: this.#guard.state(), turnId: this.turnId, ...(stop ? { stop } : {}) };
      return this.#finish("pending", { suspension: waiting.suspension });
    }
    session.pending = undefined;
    for (const slot of slots) {
      slot.message ??= toolMessage(slot.call, abortedWaitingResult(slot.call.name));
      session.append(slot.message);
    }
    if (signal.aborted) throw turnAborted(signal.reason);
    return stop ? this.#finish("incomplete", { reason: "repeated-tool-call" }) : undefined;
  }

  /** New input while a turn waits: its tools hear the cancel and every slot is answered first. */
  async #abandonPending(): Promise<void> {
    const { session } = this.#deps;
    const pending = session.pending;
    if (!pending) return;
    await abandonPending(pending, this.#roundContext(pending.turnId));
    session.pending = undefined;
    for (const slot of pending.slots) if (slot.message) session.append(slot.message);
  }

  #roundContext(turnId = this.turnId): RoundContext {
    const { session, signal, settings, waitFor, writeAhead, emit } = this.#deps;
    const record = (message: ToolMessage) => writeAhead.record({ kind: "tool-result", turnId, message });
    const keyPrefix = `${session.scope.id}/${turnId}/`;
    return { session: session.scope, signal, parallel: settings.parallelToolCalls, waitFor, guard: this.#guard, keyPrefix, record, emit };
  }

  #finish(status: AgentStatus | "aborted", extra: Pick<AgentResponse, "suspension" | "reason" | "limit" | "stoppedBy"> = {}): AgentResponse {
    const metadata = this.tally.metadata();
    this.#deps.session.usage = this.#limits.settle(metadata);
    this.#deps.emit({ type: "turn.finished", metadata, status });
    const response: AgentResponse = { content: this.#lastText(), status: status === "aborted" ? "incomplete" : status, metadata, ...extra };
    // The typed answer is the validated output of the reply that ended the turn.
    const output = status === "done" ? this.#lastReply?.output : undefined;
    if (output) response.output = output;
    return response;
  }

  /** Where the turn stands, for `prepareStep` and `stopWhen`: the latest reply and its results. */
  #step(): StepInfo {
    const history = this.#deps.session.history;
    let first = history.length;
    while (first > 0 && history[first - 1]?.role === "tool") first--;
    // Every message from `first` on is a tool result: the slice is the list, with no filter to copy it again.
    const toolResults = history.slice(first) as ToolMessage[];
    const step: StepInfo = { step: this.tally.iterations, toolResults, metadata: this.tally.metadata() };
    if (this.#lastReply) step.lastReply = this.#lastReply;
    return step;
  }

  #lastText(): string {
    if (this.#lastReply) return this.#lastReply.content;
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
