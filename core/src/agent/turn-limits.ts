import { errorResult } from "@weft/sdk";
import type { ToolResult, TurnMetadata } from "@weft/sdk";
import type { TurnTally } from "./turn-tally.js";

/** Budgets of a turn or a session; each is reached when what was used gets to it. */
export interface Limits {
  modelCalls?: number;
  toolCalls?: number;
  /** Total tokens over every model call, compaction summaries included. */
  tokens?: number;
  /** From the replies' `stats.costUsd` (a reply without one costs 0). */
  costUsd?: number;
  wallTimeMs?: number;
}

export interface AgentLimits {
  turn?: Limits;
  /** Counted over every turn of the session, kept with it in the store. */
  session?: Limits;
}

export type LimitName = keyof Limits;

/** The limit that ended a turn with status `limit`. */
export interface LimitHit {
  scope: "turn" | "session";
  name: LimitName;
  limit: number;
  used: number;
}

/** What a session has used over its turns; JSON, saved with it. */
export type SessionUsage = Record<LimitName, number>;

const NAMES: readonly LimitName[] = ["modelCalls", "toolCalls", "tokens", "costUsd", "wallTimeMs"];

export function noUsage(): SessionUsage {
  return { modelCalls: 0, toolCalls: 0, tokens: 0, costUsd: 0, wallTimeMs: 0 };
}

function usageOf(metadata: TurnMetadata): SessionUsage {
  const { usage, timings } = metadata;
  return { modelCalls: metadata.iterations, toolCalls: metadata.toolCalls, tokens: usage.totalTokens, costUsd: usage.costUsd ?? 0, wallTimeMs: timings.totalMs };
}

/**
 * Checks one turn against its limits and the session's. The session's count is what earlier turns
 * used plus this turn's progress since it (re)started, so a resumed turn is not counted twice.
 */
export class TurnLimits {
  readonly #start: SessionUsage;
  /** Whether there is any limit: without one, the checks need not read the tally. */
  readonly #limited: boolean;

  constructor(
    private readonly limits: AgentLimits,
    private readonly session: SessionUsage,
    start: TurnMetadata,
  ) {
    this.#start = usageOf(start);
    this.#limited = limits.turn !== undefined || limits.session !== undefined;
  }

  /** Before a model call: the first limit reached, if any. */
  reached(tally: TurnTally): LimitHit | undefined {
    if (!this.#limited) return undefined;
    const turn = usageOf(tally.metadata());
    const session = this.#sessionUsage(turn);
    for (const [scope, used] of [["turn", turn], ["session", session]] as const) {
      const limits = this.limits[scope];
      if (!limits) continue;
      for (const name of NAMES) {
        const limit = limits[name];
        if (limit !== undefined && used[name] >= limit) return { scope, name, limit, used: used[name] };
      }
    }
    return undefined;
  }

  /** How many more tool calls may run, and the limit that says so when it is the turn's or session's. */
  toolCallsLeft(tally: TurnTally): { left: number; hit?: LimitHit } {
    let best: { left: number; hit?: LimitHit } = { left: Number.POSITIVE_INFINITY };
    if (!this.#limited) return best;
    const turn = usageOf(tally.metadata());
    for (const [scope, used] of [["turn", turn.toolCalls], ["session", this.#sessionUsage(turn).toolCalls]] as const) {
      const limit = this.limits[scope]?.toolCalls;
      if (limit === undefined) continue;
      const left = Math.max(0, limit - used);
      if (left < best.left) best = { left, hit: { scope, name: "toolCalls", limit, used: limit } };
    }
    return best;
  }

  /** The session's usage once this turn ends. */
  settle(metadata: TurnMetadata): SessionUsage {
    return this.#sessionUsage(usageOf(metadata));
  }

  #sessionUsage(turn: SessionUsage): SessionUsage {
    const total = noUsage();
    for (const name of NAMES) total[name] = this.session[name] + turn[name] - this.#start[name];
    return total;
  }
}

/** The result of a call the tool-call limit left unrun: the model reads why. */
export function overLimitResult(name: string, hit: LimitHit): ToolResult {
  return errorResult(`${name} was not run: the ${hit.scope}'s limit of ${hit.limit} tool calls was reached`, { limit: hit.name });
}
