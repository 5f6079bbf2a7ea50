export * from "./project.js";
export { createAgent, type Agent, type AgentOptions, type AgentEvent, type KernelHost, type SessionOptions, type TurnOptions } from "./agent/agent.js";
export { SUBAGENT_TASK_SCHEMA, subagentTool, type AgentToolOptions, type SubagentRunner } from "./agent/subagent-tool.js";
export { localAgents, type LocalAgentConfig } from "./agent/local-agents.js";
export { type AgentResponse, type AgentStatus, type IncompleteReason } from "./agent/turn.js";
export type { CompactionOptions } from "./agent/compaction.js";
export type { AgentLimits, Limits, LimitHit, LimitName, SessionUsage } from "./agent/turn-limits.js";
export { stepCountIs, hasToolCall, type StopCondition, type PrepareStep } from "./agent/stop-conditions.js";
export { pruneToolResults, prunedOutput, type PruneOptions } from "./agent/prune-tool-results.js";
export { summarise, type SummariseOptions } from "./agent/summarise.js";
export { dropOldestTurns } from "./agent/drop-turns.js";
export { SUMMARY_HEADING, SUMMARY_INSTRUCTIONS } from "./agent/summary-prompt.js";
export { memorySessionStore, type MemorySessionStore, type SessionStore } from "./agent/session-store.js";
export { fileSessionStore } from "./agent/file-session-store.js";
export { versionedSessionStore } from "./agent/versioned-session-store.js";
export type { SessionState, PendingTurn, PendingSlot, TokenBaseline } from "./agent/session-state.js";
export { consoleFeedback, type ConsoleFeedbackOptions } from "./agent/console-feedback.js";
// Defined in the provider kit; re-exported for applications that run their own loop.
export { toOpenAITools, toAnthropicTools, type OpenAITool, type AnthropicTool } from "@weft/sdk";
