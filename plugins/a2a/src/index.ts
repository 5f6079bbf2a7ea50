import { a2aPlugin } from "./plugin.js";

export default a2aPlugin;
export { a2aPlugin, a2aPluginOptions, A2A_PLUGIN_NAME } from "./plugin.js";
export { agent, agentConfigSchema, DEFAULT_CALL_TIMEOUT_MS, DEFAULT_CARD_TIMEOUT_MS, type AgentConfig } from "./agent-config.js";
export {
  resolveAgentTools,
  CONVERSATION_SENTENCE,
  NEW_CONVERSATION_ARGUMENT_DESCRIPTION,
  TASK_ARGUMENT_DESCRIPTION,
  type LoadAgentsOptions,
  type ResolveAgentsOptions,
} from "./agent-tools.js";
export { CANCEL_TIMEOUT_MS, type PendingTask } from "./agent-call.js";
export { CONVERSATIONS_SERVICE, Conversations, type Conversation, type SessionConversations } from "./conversations.js";
export { AGENT_RETRY_POLICY } from "./agent-fetch.js";
export { MAX_POLL_FAILURES, MAX_RESUBSCRIBES, POLL_FIRST_DELAY_MS, POLL_MAX_DELAY_MS } from "./task-follower.js";
