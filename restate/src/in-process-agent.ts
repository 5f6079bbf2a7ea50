import { createAgent, type Agent, type AgentOptions } from "@weft/core";
import type { AgentRecipe } from "./agent-recipe.js";

export interface InProcessAgent {
  agent: Agent;
  /** Closes the session and what the recipe built. */
  close(): Promise<void>;
}

/** The recipe's agent in this process: the same parts `restateAgent` runs, with a store and waitFor of the host's. */
export async function inProcessAgent(recipe: AgentRecipe, options: Pick<AgentOptions, "store" | "waitFor" | "sessionId"> = {}): Promise<InProcessAgent> {
  const parts = await recipe();
  const agent = createAgent({ ...parts.settings, ...options, model: parts.model, kernel: parts.kernel });
  await agent.startSession(parts.session);
  return {
    agent,
    async close() {
      await agent.close();
      await parts.close?.();
    },
  };
}
