import { Arguments, WeftError, errorMessage, errorResult, objectSchema, sanitizeToolName, stderrLogger } from "@weft/sdk";
import type { Logger, Tool } from "@weft/sdk";
import type { AgentConfig } from "./agent-config.js";
import { callAgent } from "./agent-call.js";
import { connectAgent, prepareAgents, type PreparedAgent, type RemoteAgent } from "./remote-agent.js";

export const TASK_ARGUMENT_DESCRIPTION = "The task for the agent, in plain language, with everything it needs to know";

const TASK_INPUT_SCHEMA = objectSchema().string("task", TASK_ARGUMENT_DESCRIPTION, true).build();

export interface LoadAgentsOptions {
  /** Where unreachable cards are reported; stderr by default. */
  logger?: Logger;
  /** Stops the whole load (every card fetch); the load then fails with ABORTED. */
  signal?: AbortSignal;
  /** ms the whole load may take; past it the load fails with DEADLINE_EXCEEDED naming the agents not loaded. */
  deadline?: number;
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
      agents.map(async (agent): Promise<{ remote?: RemoteAgent; warning?: string }> => {
        try {
          const remote = await connectAgent(agent, signal, logger);
          return remote.card.skills.length > 0 ? { remote } : { warning: `A2A agent ${agent.label}: its card lists no skills; it contributes no tools` };
        } catch (error) {
          return { warning: `A2A agent ${agent.label}: could not load its card: ${errorMessage(error)}; it contributes no tools` };
        } finally {
          loading.delete(agent);
        }
      }),
    );
    if (signal.aborted) throw loadStopped(options, unfinished);
    // Reported in config order once all are done, so the same config gives the same lines.
    for (const { warning } of loads) if (warning) logger.warn(warning);
    return agentTools(loads.flatMap(({ remote }) => (remote ? [remote] : [])));
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

/** One tool per skill, named `<agent>__<skill>`, in config order then card order; names unique across the batch. */
export function agentTools(agents: readonly RemoteAgent[]): Tool[] {
  const taken = new Set<string>();
  return agents.flatMap((agent) =>
    agent.card.skills.map(
      (skill): Tool => ({
        name: sanitizeToolName(`${agent.name}__${skill.id || skill.name}`, taken),
        description: skill.description || skill.name || skill.id,
        inputSchema: structuredClone(TASK_INPUT_SCHEMA),
        source: { kind: "a2a", id: agent.name },
        annotations: { title: skill.name || skill.id, openWorldHint: true },
        timeoutMs: agent.timeoutMs,
        execute: async (args, ctx) => {
          const task = new Arguments(args).getString("task");
          return task.ok ? callAgent(agent, task.value, ctx) : errorResult(task.error);
        },
      }),
    ),
  );
}
