import { CompactStage, ContextOverflowError, HookFailedError, errorMessage } from "@weft/sdk";
import type { AssistantMessage, ChatModel, FeedbackEvent, KernelSession, ToolSpec } from "@weft/sdk";
import { dropOldestTurns } from "./drop-turns.js";
import { freezeMessages } from "./frozen-messages.js";
import { protectedMessages, protectedParts, protectedSet } from "./protected-set.js";
import { pruneToolResults } from "./prune-tool-results.js";
import type { Session } from "./session.js";
import { summarise } from "./summarise.js";
import { estimateMessagesTokens, estimateToolSpecTokens } from "./token-estimate.js";

export interface CompactionOptions {
  /** Compact when the estimated prompt passes this share of the context window (default 85). */
  thresholdPercent?: number;
  /** Pruning and summarising aim for this share of the window, well below the threshold, so compactions are rare (default 60). */
  targetPercent?: number;
  /** Turns before the protected ones kept verbatim when summarising, as far as half the target allows (default 4). */
  keepRecentTurns?: number;
  /** Tool results up to this many characters are never pruned to a stub (default 400). */
  pruneToolResultChars?: number;
  /** Register the built-in stages (default true); false leaves the `compact` hook to the application's own stages. */
  prune?: boolean;
  summarise?: boolean;
  /** Drop the oldest turns when pruning and summarising left the prompt over the threshold (default true). */
  drop?: boolean;
}

export type ResolvedCompactionOptions = Required<CompactionOptions>;

export function resolveCompaction(options: CompactionOptions | false | undefined): ResolvedCompactionOptions | false {
  if (options === false) return false;
  const thresholdPercent = options?.thresholdPercent ?? 85;
  return {
    thresholdPercent,
    targetPercent: Math.min(options?.targetPercent ?? 60, thresholdPercent),
    keepRecentTurns: Math.max(0, options?.keepRecentTurns ?? 4),
    pruneToolResultChars: options?.pruneToolResultChars ?? 400,
    prune: options?.prune ?? true,
    summarise: options?.summarise ?? true,
    drop: options?.drop ?? true,
  };
}

interface CompactRun {
  session: Session;
  model: ChatModel;
  tools: readonly ToolSpec[];
  signal: AbortSignal;
  estimatedTokens: number;
  thresholdTokens: number;
  targetTokens: number;
  contextWindow: number;
}

/**
 * Decides when to compact and runs the session's `compact` hook over its transcript. The built-in
 * stages (prune, summarise, drop) are taps on each session's hook (`tapStages`), so applications can
 * add stages or replace these, and they leave with the session. Whatever the stages do, no request
 * goes out over the window: one that would fails with ContextOverflowError.
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
    if (options.prune) {
      const prune = { minChars: options.pruneToolResultChars };
      scope.hooks.compact.tap({ stage: CompactStage.PRUNE }, (state) => pruneToolResults(state, prune));
    }
    if (options.summarise) {
      const stage = { keepRecentTurns: options.keepRecentTurns, prepare: scope.prepareRequest.bind(scope), onReply: this.onSummaryReply, emit: this.emit };
      scope.hooks.compact.tap({ stage: CompactStage.SUMMARISE }, (state) => summarise(state, stage));
    }
    if (options.drop) scope.hooks.compact.tap({ stage: CompactStage.DROP }, (state) => dropOldestTurns(state));
  }

  /** The prompt size: the last reported count plus an estimate of what was added since. */
  estimate(session: Session, tools: readonly ToolSpec[]): number {
    const baseline = session.baseline;
    if (baseline && baseline.messages <= session.history.length) {
      return baseline.tokens + estimateMessagesTokens(session.history, baseline.messages);
    }
    return estimateMessagesTokens(session.transcript()) + estimateToolSpecTokens(tools);
  }

  /**
   * Checked before every model call: compacts when the estimate passes the threshold. Returns a
   * promise only when there is something to wait for (the first look-up of a model's context window,
   * a compaction); the usual answer, "not yet", is given without one.
   */
  beforeModelCall(session: Session, model: ChatModel, tools: readonly ToolSpec[], signal: AbortSignal): Promise<void> | undefined {
    if (this.options === false) return undefined;
    const ref = `${model.provider}/${model.model}`;
    if (!this.#windows.has(ref)) return this.#contextWindow(model).then(() => this.beforeModelCall(session, model, tools, signal));
    const contextWindow = this.#windows.get(ref);
    if (contextWindow === undefined) return undefined;
    const thresholdTokens = Math.floor((contextWindow * this.options.thresholdPercent) / 100);
    const estimatedTokens = this.estimate(session, tools);
    if (estimatedTokens < thresholdTokens) return undefined;
    const targetTokens = Math.floor((contextWindow * this.options.targetPercent) / 100);
    return this.#run({ session, model, tools, signal, estimatedTokens, thresholdTokens, targetTokens, contextWindow }).then((after) => {
      if (after > contextWindow) throw new ContextOverflowError(ref, after, contextWindow, protectedParts(session.transcript(), estimateToolSpecTokens(tools)));
    });
  }

  /** On demand: pruning and summarising do all they can (the target is 0); dropping only past the usual threshold. */
  async compactNow(session: Session, model: ChatModel, tools: readonly ToolSpec[], signal: AbortSignal): Promise<void> {
    const contextWindow = (await this.#contextWindow(model)) ?? 0;
    const thresholdPercent = this.options === false ? 100 : this.options.thresholdPercent;
    const thresholdTokens = contextWindow > 0 ? Math.floor((contextWindow * thresholdPercent) / 100) : Number.MAX_SAFE_INTEGER;
    await this.#run({ session, model, tools, signal, estimatedTokens: this.estimate(session, tools), thresholdTokens, targetTokens: 0, contextWindow });
  }

  /** Resolves to the estimate afterwards (the one before when a stage failed). */
  async #run(run: CompactRun): Promise<number> {
    const { session, estimatedTokens, thresholdTokens, targetTokens } = run;
    this.emit({ type: "compaction.started", estimatedTokens, thresholdTokens, targetTokens });
    const messages = session.transcript();
    let result: Awaited<ReturnType<KernelSession["compact"]>>;
    try {
      const { signal, contextWindow, model } = run;
      const protectedMessagesOfTurn = protectedMessages(protectedSet(messages));
      result = await session.scope.compact({ messages, estimatedTokens, thresholdTokens, targetTokens, contextWindow, protectedMessages: protectedMessagesOfTurn, stages: [], model, signal });
    } catch (error) {
      if (run.signal.aborted) throw error;
      // The built-in stages are the session's own taps: their failure needs no plugin named.
      const own = error instanceof HookFailedError && error.plugin === session.scope.name;
      this.emit({ type: "compaction.failed", reason: errorMessage(own ? error.cause : error) });
      return estimatedTokens;
    }
    // The system prompt is rebuilt before every call; the transcript is what follows it.
    let start = 0;
    while (result.messages[start]?.role === "system") start++;
    session.history = freezeMessages(result.messages.slice(start));
    session.baseline = { tokens: result.estimatedTokens, messages: session.history.length };
    this.emit({ type: "compaction.finished", before: estimatedTokens, after: result.estimatedTokens, stages: result.stages ?? [] });
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
