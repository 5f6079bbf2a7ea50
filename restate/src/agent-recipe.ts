import type { AgentOptions, SessionOptions } from "@weft/core";
import type { ChatModel, Kernel } from "@weft/sdk";

/** What an agent session runs on. */
export interface AgentParts {
  model: ChatModel;
  kernel: Kernel;
  /** The session's prompt and own tools. */
  session?: Omit<SessionOptions, "sessionId" | "messages">;
  /** Loop settings (iterations, compaction, parallel calls). */
  settings?: Omit<AgentOptions, "model" | "kernel" | "toolkit" | "store" | "waitFor" | "sessionId">;
  /** Releases what the parts hold (the kernel, MCP servers). */
  close?(): Promise<void>;
}

/**
 * Builds an agent's parts: the one piece of application code, whether the session runs in-process
 * (`createAgent`) or on Restate (`restateAgent`). On Restate it is called once per turn, on whichever
 * worker runs it, so it must build the same parts every time.
 */
export type AgentRecipe = () => Promise<AgentParts> | AgentParts;
