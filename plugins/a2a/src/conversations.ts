/**
 * Where one tool's conversation with its remote agent stands in one weft session: the agent's
 * `contextId`, and the task it left waiting for the caller (input-required, auth-required), which the
 * next call continues instead of starting another.
 */
export interface Conversation {
  contextId: string;
  openTaskId?: string;
}

/** A session's conversations by tool name: plain JSON, so a session store can keep it with the session. */
export type SessionConversations = Record<string, Conversation>;

/** Calls that carry no session id (a toolkit's own `execute`) share this one. */
export const NO_SESSION = "";

/**
 * The remote conversations of every session, by session id then tool name. In memory by default;
 * `session()` / `restore()` move one session's part in and out of a store, `toJSON()` / `from()` all of it.
 */
export class Conversations {
  readonly #sessions = new Map<string, Map<string, Conversation>>();

  static from(snapshot: Record<string, SessionConversations>): Conversations {
    const conversations = new Conversations();
    for (const [sessionId, tools] of Object.entries(snapshot)) conversations.restore(sessionId, tools);
    return conversations;
  }

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

  /** One session's conversations, to store with the session. */
  session(sessionId: string): SessionConversations {
    return Object.fromEntries([...(this.#sessions.get(sessionId) ?? [])].map(([tool, conversation]) => [tool, { ...conversation }]));
  }

  /** Puts back what `session()` gave, e.g. when a stored session resumes in another process. */
  restore(sessionId: string, tools: SessionConversations): void {
    this.#sessions.delete(sessionId);
    for (const [tool, conversation] of Object.entries(tools)) {
      if (typeof conversation?.contextId === "string") this.set(sessionId, tool, conversation);
    }
  }

  /** Drops a session's conversations (it ended). */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  toJSON(): Record<string, SessionConversations> {
    return Object.fromEntries([...this.#sessions.keys()].map((sessionId) => [sessionId, this.session(sessionId)]));
  }
}
