export { restateAgent, DEFAULT_AGENT_OBJECT, type RestateAgentObject, type RestateAgentOptions } from "./agent-object.js";
export { restateAgentClient, type RestateAgentClient, type RestateAgentClientOptions, type TurnHandle } from "./agent-client.js";
export type { AgentParts, AgentRecipe } from "./agent-recipe.js";
export { AWAITING_KEY, type Awaiting } from "./awakeable-wait-for.js";
export { journaledKernel } from "./journaled-kernel.js";
export { journaledModel } from "./journaled-model.js";
export type { ModelRetryPolicy } from "./model-retry.js";
export { inProcessAgent, type InProcessAgent } from "./in-process-agent.js";
