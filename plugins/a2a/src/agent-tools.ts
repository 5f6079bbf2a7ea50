import { Arguments, WeftError, errorMessage, errorResult, objectSchema, sanitizeToolName, stderrLogger } from "@weft/sdk";
import type { Logger, Tool } from "@weft/sdk";
import type { AgentConfig } from "./agent-config.js";
import { callAgent } from "./agent-call.js";
import { Conversations } from "./conversations.js";
import { connectAgent, prepareAgents, type PreparedAgent, type RemoteAgent } from "./remote-agent.js";

export const TASK_ARGUMENT_DESCRIPTION = "The task for the agent, in plain language, with everything it needs to know";

export const NEW_CONVERSATION_ARGUMENT_DESCRIPTION = "true to start a new conversation with the agent instead of continuing this session's";

/** Appended to every skill's description: the model must know the agent remembers, and how to make it forget. */
export const CONVERSATION_SENTENCE =
  "Calls in one session continue one conversation with this agent: it remembers earlier calls, and a question it asked is answered by your next call; set new_conversation to true to start afresh.";

const TASK_INPUT_SCHEMA = objectSchema()
  .string("task", TASK_ARGUMENT_DESCRIPTION, true)
  .boolean("new_conversation", NEW_CONVERSATION_ARGUMENT_DESCRIPTION)
  .build();

export interface LoadAgentsOptions {
  /** Where unreachable cards are reported; stderr by default. */
  logger?: Logger;
  /** Stops the whole load (every card fetch); the load then fails with ABORTED. */
  signal?: AbortSignal;
  /** ms the whole load may take; past it the load fails with DEADLINE_EXCEEDED naming the agents not loaded. */
  deadline?: number;
  /** Where the tools keep each session's remote conversations; in memory by default. */
  conversations?: Conversations;
}

export interface ResolveAgentsOptions extends LoadAgentsOptions {
  /** Where `${VAR}` in headers comes from; `process.env` by default. */
  env?: Record<string, string | undefined>;
}

/**
 * Resolves every agent's card in parallel and returns one tool per skill, `<agent>__<skill>`. A card
 * that cannot be fetched or parsed is a warning and contributes no tools; an unset `${VAR}` in a
 * header is a CREDENTIAL_MISSING error before anything is fetched.
 */
export async function resolveAgentTools(configs: readonly AgentConfig[], options: ResolveAgentsOptions = {}): Promise<Tool[]> {
  return loadAgentTools(prepareAgents(configs, options.env ?? process.env), options);
}

export async function loadAgentTools(agents: readonly PreparedAgent[], options: LoadAgentsOptions = {}): Promise<Tool[]> {
  const logger = options.logger ?? stderrLogger;
  const limits = [options.signal, options.deadline === undefined ? undefined : AbortSignal.timeout(options.deadline)];
  const signal = AbortSignal.any(limits.filter((limit): limit is AbortSignal => limit !== undefined));
  const loading = new Set(agents);
  let unfinished: string[] = [];
  const snapshot = () => (unfinished = [...loading].map((agent) => agent.label));
  signal.addEventListener("abort", snapshot, { once: true });
  try {
    if (signal.aborted) snapshot();
    const loads = await Promise.all(
      agents.map(async (agent): Promise<{ remote?: RemoteAgent; warnings: string[] }> => {
        const warnings: string[] = [];
        const warn = (text: string) => warnings.push(`A2A agent ${agent.label}: ${text}`);
        try {
          const remote = await connectAgent(agent, signal, logger, warn);
          if (remote.card.skills.length > 0) return { remote, warnings };
          warn("its card lists no skills; it contributes no tools");
        } catch (error) {
          warn(`could not load its card: ${errorMessage(error)}; it contributes no tools`);
        } finally {
          loading.delete(agent);
        }
        return { warnings };
      }),
    );
    if (signal.aborted) throw loadStopped(options, unfinished);
    // Reported in config order once all are done, so the same config gives the same lines.
    for (const { warnings } of loads) for (const warning of warnings) logger.warn(warning);
    const remotes = distinctNames(
      loads.flatMap(({ remote }, index) => (remote ? [{ remote, label: agents[index]?.label ?? remote.name }] : [])),
      logger,
    );
    return agentTools(remotes, options.conversations ?? new Conversations());
  } finally {
    signal.removeEventListener("abort", snapshot);
  }
}

function loadStopped(options: LoadAgentsOptions, unfinished: string[]): WeftError {
  const names = unfinished.length > 0 ? unfinished.join(", ") : "(none)";
  if (options.signal?.aborted) return new WeftError("ABORTED", `loading A2A agents was aborted; not loaded: ${names}`);
  return new WeftError(
    "DEADLINE_EXCEEDED",
    `A2A agents did not load within the deadline of ${options.deadline} ms; not loaded: ${names}. Check that they answer, or raise the deadline`,
  );
}

/** Two agents with one name would share a source id and a tool prefix: the later one gets a stable suffix, with a warning. */
function distinctNames(loaded: { remote: RemoteAgent; label: string }[], logger: Logger): RemoteAgent[] {
  const taken = new Set<string>();
  const first = new Map<string, string>();
  return loaded.map(({ remote, label }) => {
    const name = sanitizeToolName(remote.name, taken);
    taken.add(name);
    if (name === remote.name) {
      first.set(name, label);
      return remote;
    }
    logger.warn(`A2A agent ${label}: its name ${remote.name} is taken by ${first.get(remote.name)}; its tools are named ${name}__*. Set name: in its config to choose one`);
    return { ...remote, name };
  });
}

/** One tool per skill, named `<agent>__<skill>`, in config order then card order; names unique across the batch. */
function agentTools(agents: readonly RemoteAgent[], conversations: Conversations): Tool[] {
  const taken = new Set<string>();
  return agents.flatMap((agent) =>
    agent.card.skills.map((skill): Tool => {
      const name = sanitizeToolName(`${agent.name}__${skill.id || skill.name}`, taken);
      return {
        name,
        description: `${skill.description || skill.name || skill.id} ${CONVERSATION_SENTENCE}`,
        inputSchema: structuredClone(TASK_INPUT_SCHEMA),
        source: { kind: "a2a", id: agent.name },
        annotations: { title: skill.name || skill.id, openWorldHint: true },
        timeoutMs: agent.timeoutMs,
        execute: async (args, ctx) => {
          const read = new Arguments(args);
          const task = read.getString("task");
          if (!task.ok) return errorResult(task.error);
          const fresh = read.getBoolOr("new_conversation", false);
          if (!fresh.ok) return errorResult(fresh.error);
          return callAgent(agent, { tool: name, task: task.value, newConversation: fresh.value }, ctx, conversations);
        },
      };
    }),
  );
}
