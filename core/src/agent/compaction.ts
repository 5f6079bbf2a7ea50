import { CompactStage, HookFailedError, errorMessage } from "@weft/sdk";
import type { AssistantMessage, ChatModel, FeedbackEvent, KernelSession, ToolSpec } from "@weft/sdk";
import { pruneToolResults } from "./prune-tool-results.js";
import type { Session } from "./session.js";
import { summarise } from "./summarise.js";
import { estimateMessagesTokens, estimateToolSpecTokens } from "./token-estimate.js";

export interface CompactionOptions {
  /** Compact when the estimated prompt passes this share of the context window (default 85). */
  thresholdPercent?: number;
  /** Turns at the end kept verbatim: a user message, or an assistant message with its tool results (default 4, at least 1). */
  keepRecentTurns?: number;
  /** Older tool results longer than this many characters are cut to head and tail (default 4000). */
  pruneToolResultChars?: number;
  /** Register the built-in stages (default true); false leaves the `compact` hook to the application's own stages. */
  prune?: boolean;
  summarise?: boolean;
}

export type ResolvedCompactionOptions = Required<CompactionOptions>;

export function resolveCompaction(options: CompactionOptions | false | undefined): ResolvedCompactionOptions | false {
  if (options === false) return false;
  return {
    thresholdPercent: options?.thresholdPercent ?? 85,
    keepRecentTurns: Math.max(1, options?.keepRecentTurns ?? 4),
    pruneToolResultChars: options?.pruneToolResultChars ?? 4000,
    prune: options?.prune ?? true,
    summarise: options?.summarise ?? true,
  };
}

/** Per-turn memory: a compaction that did not get under the threshold is not retried in the turn. */
export interface CompactionTurnState {
  spent: boolean;
  skipReported: boolean;
}

interface CompactRun {
  session: Session;
  model: ChatModel;
  signal: AbortSignal;
  estimatedTokens: number;
  thresholdTokens: number;
  contextWindow: number;
}

/**
 * Decides when to compact and runs the session's `compact` hook over its transcript. The built-in
 * stages (prune, then summarise) are taps on each session's hook (`tapStages`), so applications can add
 * stages or replace these, and they leave with the session.
 */
export class Compactor {
  readonly #windows = new Map<string, number | undefined>();

  constructor(
    private readonly options: ResolvedCompactionOptions | false,
    private readonly emit: (event: FeedbackEvent) => void,
    /** Told about each summary call, so its tokens count in the turn's usage. */
    private readonly onSummaryReply: (reply: AssistantMessage, durationMs: number) => void,
  ) {}

  /** Taps this agent's built-in stages on a session's `compact` hook. */
  tapStages(scope: KernelSession): void {
    const { options } = this;
    if (options === false) return;
    const { keepRecentTurns } = options;
    if (options.prune) {
      const prune = { keepRecentTurns, maxChars: options.pruneToolResultChars };
      scope.hooks.compact.tap({ stage: CompactStage.PRUNE }, (state) => pruneToolResults(state, prune));
    }
    if (options.summarise) {
      const stage = { keepRecentTurns, prepare: scope.prepareRequest.bind(scope), onReply: this.onSummaryReply };
      scope.hooks.compact.tap({ stage: CompactStage.SUMMARISE }, (state) => summarise(state, stage));
    }
  }

  /** The prompt size: the last reported count plus an estimate of what was added since. */
  estimate(session: Session, tools: readonly ToolSpec[]): number {
    const baseline = session.baseline;
    if (baseline && baseline.messages <= session.history.length) {
      return baseline.tokens + estimateMessagesTokens(session.history.slice(baseline.messages));
    }
    return estimateMessagesTokens(session.transcript()) + estimateToolSpecTokens(tools);
  }

  /**
   * Checked before every model call: compacts when the estimate passes the threshold. Returns a
   * promise only when there is something to wait for (the first look-up of a model's context window,
   * a compaction); the usual answer, "not yet", is given without one.
   */
  beforeModelCall(session: Session, model: ChatModel, tools: readonly ToolSpec[], signal: AbortSignal, turn: CompactionTurnState): Promise<void> | undefined {
    if (this.options === false) return undefined;
    const ref = `${model.provider}/${model.model}`;
    if (!this.#windows.has(ref)) return this.#contextWindow(model).then(() => this.beforeModelCall(session, model, tools, signal, turn));
    const contextWindow = this.#windows.get(ref);
    if (contextWindow === undefined) return undefined;
    const thresholdTokens = Math.floor((contextWindow * this.options.thresholdPercent) / 100);
    const estimatedTokens = this.estimate(session, tools);
    if (estimatedTokens < thresholdTokens) return undefined;
    return this.#compact({ session, model, signal, estimatedTokens, thresholdTokens, contextWindow }, turn);
  }

  async #compact(run: CompactRun, turn: CompactionTurnState): Promise<void> {
    const { thresholdTokens } = run;
    if (turn.spent) {
      if (!turn.skipReported) {
        turn.skipReported = true;
        this.emit({ type: "compaction.skipped", reason: "the last compaction did not bring the prompt under the threshold; it is not retried in this turn" });
      }
      return;
    }
    const after = await this.#run(run);
    if (after === undefined || after >= thresholdTokens) turn.spent = true;
  }

  /** On demand: every stage does its work whatever the size (the threshold is 0). */
  async compactNow(session: Session, model: ChatModel, tools: readonly ToolSpec[], signal: AbortSignal): Promise<void> {
    const contextWindow = (await this.#contextWindow(model)) ?? 0;
    await this.#run({ session, model, signal, estimatedTokens: this.estimate(session, tools), thresholdTokens: 0, contextWindow });
  }

  /** Resolves to the estimate afterwards, or undefined when the compaction failed. */
  async #run(run: CompactRun): Promise<number | undefined> {
    const { session, estimatedTokens, thresholdTokens } = run;
    this.emit({ type: "compaction.started", estimatedTokens, thresholdTokens });
    let result: Awaited<ReturnType<KernelSession["compact"]>>;
    try {
      const { signal } = run;
      result = await session.scope.compact({ messages: session.transcript(), estimatedTokens, thresholdTokens, contextWindow: run.contextWindow, model: run.model, signal });
    } catch (error) {
      if (run.signal.aborted) throw error;
      // The built-in stages are the session's own taps: their failure needs no plugin named.
      const own = error instanceof HookFailedError && error.plugin === session.scope.name;
      this.emit({ type: "compaction.failed", reason: errorMessage(own ? error.cause : error) });
      return undefined;
    }
    // The system prompt is rebuilt before every call; the transcript is what follows it.
    let start = 0;
    while (result.messages[start]?.role === "system") start++;
    session.history = result.messages.slice(start);
    session.baseline = { tokens: result.estimatedTokens, messages: session.history.length };
    this.emit({ type: "compaction.finished", before: estimatedTokens, after: result.estimatedTokens });
    return result.estimatedTokens;
  }

  async #contextWindow(model: ChatModel): Promise<number | undefined> {
    const ref = `${model.provider}/${model.model}`;
    if (this.#windows.has(ref)) return this.#windows.get(ref);
    let contextWindow: number | undefined;
    try {
      contextWindow = (await model.info()).contextWindow;
    } catch (error) {
      const reason = errorMessage(error);
      this.emit({ type: "model.info-unavailable", model: ref, reason });
      this.emit({ type: "compaction.skipped", reason: `the context window of ${ref} is unknown (${reason}); compaction is off for this model` });
    }
    this.#windows.set(ref, contextWindow);
    return contextWindow;
  }
}
