import { isRecord, type SessionStateService, type StateSession } from "@weft/sdk";

/**
 * Where one tool's conversation with its remote agent stands in one weft session: the agent's
 * `contextId`, and the task it left waiting for the caller (input-required, auth-required), which the
 * next call continues instead of starting another.
 */
export interface Conversation {
  contextId: string;
  openTaskId?: string;
}

/** A session's conversations by tool name: plain JSON, kept with the session in its store. */
export type SessionConversations = Record<string, Conversation>;

/** Calls that carry no session id (a toolkit's own `execute`) share this one. */
export const NO_SESSION = "";

/** The service's name, and its key in a stored session's `services`. */
export const CONVERSATIONS_SERVICE = "a2a.conversations";

declare module "@weft/sdk" {
  interface WeftServices {
    "a2a.conversations": Conversations;
  }
}

/**
 * The remote conversations of every session, by session id then tool name. The plugin provides it as
 * the `a2a.conversations` session-state service: the agent saves each session's part with the session
 * and hands it back when the session resumes (in this process or another); a closed session's part is
 * dropped from memory.
 */
export class Conversations implements SessionStateService {
  readonly #sessions = new Map<string, Map<string, Conversation>>();

  get(sessionId: string, tool: string): Conversation | undefined {
    return this.#sessions.get(sessionId)?.get(tool);
  }

  set(sessionId: string, tool: string, conversation: Conversation | undefined): void {
    let tools = this.#sessions.get(sessionId);
    if (!conversation) {
      tools?.delete(tool);
      if (tools?.size === 0) this.#sessions.delete(sessionId);
      return;
    }
    if (!tools) {
      tools = new Map();
      this.#sessions.set(sessionId, tools);
    }
    tools.set(tool, { ...conversation });
  }

  /** One session's conversations, to store with the session; undefined when it has none. */
  saveSessionState(session: StateSession): SessionConversations | undefined {
    const tools = this.#sessions.get(session.id);
    if (!tools) return undefined;
    return Object.fromEntries([...tools].map(([tool, conversation]) => [tool, { ...conversation }]));
  }

  /** Puts back what `saveSessionState` gave, e.g. when a stored session resumes in another process. */
  restoreSessionState(session: StateSession, value: unknown): void {
    if (!isSessionConversations(value)) throw new Error("the stored value is not { [tool]: { contextId, openTaskId? } }");
    this.#sessions.delete(session.id);
    for (const [tool, conversation] of Object.entries(value)) this.set(session.id, tool, conversation);
  }

  forgetSessionState(session: StateSession): void {
    this.#sessions.delete(session.id);
  }
}

function isSessionConversations(value: unknown): value is SessionConversations {
  if (!isRecord(value)) return false;
  return Object.values(value).every((conversation: unknown) => {
    if (!isRecord(conversation)) return false;
    const { contextId, openTaskId } = conversation;
    return typeof contextId === "string" && (openTaskId === undefined || typeof openTaskId === "string");
  });
}
