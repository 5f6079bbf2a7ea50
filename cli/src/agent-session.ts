import { createAgent, loadProject, localAgents, type Agent, type Project } from "@weft/core";
import { EFFORTS, WeftError, isEffort, type FeedbackEvent, type WaitFor } from "@weft/sdk";
import { UsageError, type FlagSpecs } from "./command.js";
import { CONFIG_FLAG } from "./common-flags.js";

/** The flags `weft run` and `weft chat` share. */
export const AGENT_FLAGS = {
  ...CONFIG_FLAG,
  model: { type: "string", value: "provider/model", description: "the model to run (default: model: in weft.config.yaml)" },
  effort: { type: "string", value: EFFORTS.join("|"), description: "how hard the model thinks (default: effort: in weft.config.yaml)" },
  "max-iterations": { type: "string", value: "<n>", description: "stop after n model calls (default 50; 0: no limit)" },
} as const satisfies FlagSpecs;

/** The parsed values of AGENT_FLAGS (and `--config`). */
interface AgentFlagValues {
  config?: string;
  model?: string;
  effort?: string;
  "max-iterations"?: string;
}

export interface AgentSessionOptions {
  cwd: string;
  flags: AgentFlagValues;
  waitFor?: WaitFor;
  /** Sees the load's events (MCP servers starting) and every turn's. */
  feedback?: (event: FeedbackEvent) => void;
}

export interface AgentSession {
  project: Project;
  agent: Agent;
  close(): Promise<void>;
}

/** The project, its toolkit and an agent on the configured (or given) model, with a session started. */
export async function openAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { flags } = options;
  const effort = flags.effort;
  if (effort !== undefined && !isEffort(effort)) throw new UsageError(`--effort must be one of ${EFFORTS.join(", ")}`);
  const maxIterations = flags["max-iterations"] === undefined ? undefined : Number(flags["max-iterations"]);
  if (maxIterations !== undefined && !(Number.isInteger(maxIterations) && maxIterations >= 0)) {
    throw new UsageError("--max-iterations must be a whole number (0 for no limit)");
  }
  const project = await loadProject({ cwd: options.cwd, config: flags.config, waitFor: options.waitFor, feedback: options.feedback, model: flags.model });
  try {
    const ref = flags.model ?? project.config.model;
    if (!ref) {
      throw new WeftError("CONFIG_INVALID", `no model to run: set model: provider/model in ${project.file} or pass --model provider/model`);
    }
    const model = await project.kernel.createModel(ref);
    const chosenEffort = effort ?? project.config.effort;
    if (chosenEffort) model.changeEffort(chosenEffort);
    const agent = createAgent({ model, toolkit: project.toolkit, maxIterations: maxIterations ?? project.config.maxIterations, subagents: localAgents(project.config.agents) });
    await agent.startSession({ prompt: project.config.instructions });
    return {
      project,
      agent,
      close: async () => {
        await agent.close();
        await project.toolkit.close();
      },
    };
  } catch (error) {
    await project.toolkit.close();
    throw error;
  }
}
