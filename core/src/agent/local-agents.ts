import type { AnyTool, ChatModel, Kernel, ToolSubset } from "@weft/sdk";

/**
 * A subagent the project config declares in `agents:` beside the remote A2A ones:
 * `{ name, description, local: { instructions, model?, tools?: { only | exclude }, maxIterations? } }`.
 */
export interface LocalAgentConfig {
  name: string;
  description: string;
  local: {
    instructions: string;
    /** `provider/model`; the calling agent's model when absent. */
    model?: string;
    /** Which of the kernel's tools it may call. */
    tools?: ToolSubset;
    /** Its own budget of model rounds per call (default: the calling agent's). */
    maxIterations?: number;
  };
}

/** An `agents:` entry that runs here rather than at a remote card. */
export function isLocalAgent(entry: unknown): entry is LocalAgentConfig {
  return typeof entry === "object" && entry !== null && "local" in entry;
}

/** The local agents of a config's `agents:` list (validated by the config loader). */
export function localAgents(entries: readonly unknown[] | undefined): LocalAgentConfig[] {
  return (entries ?? []).filter(isLocalAgent);
}

/** What building a local agent takes: the calling agent's kernel and model, and how it makes agents. */
export interface LocalAgentHost {
  kernel: Kernel;
  model: ChatModel;
  /** Makes the subagent (the caller's `createAgent`, with its store) and offers it as a tool. */
  toolOf(config: LocalAgentConfig, model: ChatModel): AnyTool;
}

/** The tools of a session's local agents; a named model is created on the kernel's providers. */
export async function localAgentTools(configs: readonly LocalAgentConfig[], host: LocalAgentHost): Promise<AnyTool[]> {
  return Promise.all(configs.map(async (config) => host.toolOf(config, config.local.model ? await host.kernel.createModel(config.local.model) : host.model)));
}
