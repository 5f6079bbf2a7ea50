import * as restate from "@restatedev/restate-sdk";
import { createAgent, versionedSessionStore, type AgentResponse, type SessionStore } from "@weft/core";
import {
  SessionConflictError,
  errorMessage,
  isAbortError,
  isWeftError,
  type Kernel,
  type Message,
  type PendingAnswer,
  type SessionSnapshot,
  type StoredSession,
  type Suspension,
  type TurnRecord,
} from "@weft/sdk";
import type { AgentRecipe } from "./agent-recipe.js";
import { AWAITING_KEY, awakeableWaitFor, type Awaiting } from "./awakeable-wait-for.js";
import { JournalEvents } from "./journal-events.js";
import { journaledKernel } from "./journaled-kernel.js";
import { journaledModel } from "./journaled-model.js";
import type { ModelRetryPolicy } from "./model-retry.js";
import { SESSION_KEY, objectSessionStore } from "./object-session-store.js";
import { ingressEventSink, type TurnEventSink } from "./turn-event-sink.js";
import { DEFAULT_EVENTS_OBJECT } from "./turn-events-object.js";

export interface RestateAgentOptions {
  /** The virtual object's name (default `weft-agent`). */
  name?: string;
  /** How a failed model call is retried (Restate's defaults: until cancelled); a provider's refusal is never retried. */
  modelRetry?: ModelRetryPolicy;
  /**
   * Where the turn's events go for its caller, while it runs: the Restate ingress the relay object
   * (`turnEventsObject`, served by some deployment) is reached through. Without it, only the worker's
   * own feedback subscribers hear them.
   */
  events?: { ingressUrl: string; name?: string };
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
        // Request-response mode ends an attempt at each step and leaves the handler suspended, its
        // `finally` never run: what the recipe built (a kernel, MCP servers) is closed as the attempt ends.
        let closing: Promise<void> | undefined;
        const release = () => (closing ??= Promise.resolve(parts.close?.()));
        ctx.request().attemptCompletedSignal.addEventListener("abort", () => void release(), { once: true });
        const sessionId = ctx.key;
        const steps = new JournalEvents(ctx, eventSink(options.events, `${sessionId}/${ctx.request().id}`, parts.kernel));
        const agent = createAgent({
          ...parts.settings,
          model: journaledModel(steps, parts.model, options.modelRetry),
          kernel: journaledKernel(ctx, steps, parts.kernel, sessionId),
          store: agentStore(ctx, steps),
          waitFor: awakeableWaitFor(ctx, steps),
          sessionId,
        });
        try {
          await agent.startSession(parts.session);
          const response = await agent.process(input);
          await steps.end();
          return response;
        } catch (error) {
          // The agent's own verdicts (a limit, bad input) would fail the same way on every retry.
          const terminal = isWeftError(error) && !isAbortError(error) ? new restate.TerminalError(`${error.code}: ${error.message}`) : error;
          if (terminal instanceof restate.TerminalError) await steps.end(terminal.message);
          throw terminal;
        } finally {
          await agent.close();
          await release();
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
        return (await ctx.get<StoredSession>(SESSION_KEY))?.messages ?? [];
      }),
      // The session through the store contract from outside a turn (restateSessionStore): the same
      // document the turns write, behind the same lock.
      load: restate.handlers.object.shared(async (ctx: restate.ObjectSharedContext): Promise<StoredSession | null> => {
        return (await ctx.get<StoredSession>(SESSION_KEY)) ?? null;
      }),
      save: async (ctx: restate.ObjectContext, { snapshot, expectedVersion }: { snapshot: SessionSnapshot; expectedVersion: number }): Promise<WriteOutcome> =>
        outcome(() => handlerStore(ctx).save(ctx.key, snapshot, expectedVersion)),
      append: async (ctx: restate.ObjectContext, { record, expectedVersion }: { record: TurnRecord; expectedVersion: number }): Promise<WriteOutcome> =>
        outcome(() => handlerStore(ctx).append(ctx.key, record, expectedVersion)),
      delete: async (ctx: restate.ObjectContext): Promise<boolean> => handlerStore(ctx).delete(ctx.key),
    },
  });
}

export type RestateAgentObject = ReturnType<typeof restateAgent>;

/** A store write as the object answers it: the new version, or the version that made it conflict (null: none). */
export type WriteOutcome = { ok: true; version: number } | { ok: false; actual: number | null };

function handlerStore(ctx: restate.ObjectContext) {
  return objectSessionStore(ctx, (name, action) => ctx.run(name, action));
}

/** A conflict is an answer, not a failure: the caller turns it back into SessionConflictError. */
async function outcome(write: () => Promise<number>): Promise<WriteOutcome> {
  try {
    return { ok: true, version: await write() };
  } catch (error) {
    if (error instanceof SessionConflictError) return { ok: false, actual: error.actualVersion ?? null };
    throw error;
  }
}

/**
 * The session through the sdk's store contract and core's adapter, as in-process agents keep theirs.
 * Without write-ahead records: Restate's journal already keeps a turn that stops midway, and each
 * record would be one more step.
 */
function agentStore(ctx: restate.ObjectContext, steps: JournalEvents): SessionStore {
  const store = versionedSessionStore(objectSessionStore(ctx, (name, action) => steps.step(name, action)));
  return { get: (sessionId) => store.get(sessionId), save: (sessionId, state) => store.save(sessionId, state) };
}

function eventSink(events: RestateAgentOptions["events"], topic: string, kernel: Kernel): TurnEventSink | undefined {
  if (!events) return undefined;
  return ingressEventSink(events.ingressUrl, events.name ?? DEFAULT_EVENTS_OBJECT, topic, (error) => {
    kernel.logger.warn(`the events of turn ${topic} could not reach the relay (${errorMessage(error)}); its caller misses them`);
  });
}
