import { addStats, emptyStats } from "@weft/sdk";
import type { Stats, TurnMetadata } from "@weft/sdk";

/**
 * Counts what one turn costs: model rounds, tool calls, tokens over every model call (and the final
 * call's alone), and time. A resumed turn starts from the metadata saved when it stopped.
 */
export class TurnTally {
  iterations: number;
  toolCalls: number;
  usage: Stats;
  finalUsage: Stats;
  stopReason: string | undefined;
  modelMs: number;
  toolMs: number;
  readonly #priorMs: number;
  readonly #started = performance.now();

  constructor(prior?: TurnMetadata) {
    this.iterations = prior?.iterations ?? 0;
    this.toolCalls = prior?.toolCalls ?? 0;
    this.usage = prior ? { ...prior.usage } : emptyStats();
    this.finalUsage = prior ? { ...prior.finalUsage } : emptyStats();
    this.stopReason = prior?.stopReason;
    this.modelMs = prior?.timings.modelMs ?? 0;
    this.toolMs = prior?.timings.toolMs ?? 0;
    this.#priorMs = prior?.timings.totalMs ?? 0;
  }

  /** One round's model call. */
  addRound(stats: Stats, stopReason: string | undefined, durationMs: number): void {
    this.iterations++;
    this.usage = addStats(this.usage, stats);
    this.finalUsage = { ...stats };
    this.stopReason = stopReason;
    this.modelMs += durationMs;
  }

  /** A model call that is not a round (a compaction summary): it costs tokens and time only. */
  addSideCall(stats: Stats, durationMs: number): void {
    this.usage = addStats(this.usage, stats);
    this.modelMs += durationMs;
  }

  addTools(calls: number, durationMs: number): void {
    this.toolCalls += calls;
    this.toolMs += durationMs;
  }

  metadata(): TurnMetadata {
    const metadata: TurnMetadata = {
      iterations: this.iterations,
      toolCalls: this.toolCalls,
      usage: { ...this.usage },
      finalUsage: { ...this.finalUsage },
      timings: { modelMs: round(this.modelMs), toolMs: round(this.toolMs), totalMs: round(this.#priorMs + performance.now() - this.#started) },
    };
    if (this.stopReason !== undefined) metadata.stopReason = this.stopReason;
    return metadata;
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
