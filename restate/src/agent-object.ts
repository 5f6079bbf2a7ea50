import * as restate from "@restatedev/restate-sdk";
import { createAgent, type AgentResponse, type SessionState } from "@weft/core";
import { isAbortError, isWeftError, type Message, type PendingAnswer, type Suspension } from "@weft/sdk";
import type { AgentRecipe } from "./agent-recipe.js";
import { AWAITING_KEY, awakeableWaitFor, type Awaiting } from "./awakeable-wait-for.js";
import { journaledKernel } from "./journaled-kernel.js";
import { journaledModel } from "./journaled-model.js";
import type { ModelRetryPolicy } from "./model-retry.js";
import { SESSION_KEY, restateSessionState } from "./restate-session-state.js";

export interface RestateAgentOptions {
  /** The virtual object's name (default `weft-agent`). */
  name?: string;
  /** How a failed model call is retried (Restate's defaults: until cancelled); a provider's refusal is never retried. */
  modelRetry?: ModelRetryPolicy;
}

export const DEFAULT_AGENT_OBJECT = "weft-agent";

/**
 * An agent session as a Restate virtual object keyed by session id. `process` runs one turn (one at
 * a time per session: the object's lock), with every model call and tool call a journaled step, so
 * a worker killed anywhere resumes on another without repeating a completed call. A suspension
 * waits on an awakeable; `answer` resolves it, `pending` tells what it waits for.
 */
export function restateAgent(recipe: AgentRecipe, options: RestateAgentOptions = {}) {
  return restate.object({
    name: options.name ?? DEFAULT_AGENT_OBJECT,
    handlers: {
      process: async (ctx: restate.ObjectContext, input: string): Promise<AgentResponse> => {
        const parts = await recipe();
        const sessionId = ctx.key;
        const agent = createAgent({
          ...parts.settings,
          model: journaledModel(ctx, parts.model, options.modelRetry),
          kernel: journaledKernel(ctx, parts.kernel, sessionId),
          store: restateSessionState(ctx),
          waitFor: awakeableWaitFor(ctx),
          sessionId,
        });
        try {
          await agent.startSession(parts.session);
          return await agent.process(input);
        } catch (error) {
          // The agent's own verdicts (a limit, bad input) would fail the same way on every retry.
          if (isWeftError(error) && !isAbortError(error)) throw new restate.TerminalError(`${error.code}: ${error.message}`);
          throw error;
        } finally {
          await agent.close();
          await parts.close?.();
        }
      },
      answer: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext, answer: PendingAnswer): Promise<void> => {
        const awaiting = await ctx.get<Awaiting>(AWAITING_KEY);
        if (!awaiting) throw new restate.TerminalError(`session "${ctx.key}" waits for no answer`);
        ctx.resolveAwakeable(awaiting.awakeableId, answer);
      }),
      pending: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext): Promise<Suspension | null> => {
        return (await ctx.get<Awaiting>(AWAITING_KEY))?.suspension ?? null;
      }),
      messages: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext): Promise<Message[]> => {
        return (await ctx.get<SessionState>(SESSION_KEY))?.messages ?? [];
      }),
    },
  });
}

export type RestateAgentObject = ReturnType<typeof restateAgent>;
