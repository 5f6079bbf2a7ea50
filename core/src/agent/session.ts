import type { KernelSession, Message } from "@weft/sdk";
import type { TodoItem } from "../builtins/todo-list.js";
import { freezeMessage, freezeMessages } from "./frozen-messages.js";
import type { PendingTurn, SessionState, TokenBaseline } from "./session-state.js";
import { noUsage, type SessionUsage } from "./turn-limits.js";

/**
 * One conversation: its prompt, transcript, todo list and the tools and skills it was equipped with.
 * The todo list, token baseline and usage are kept with the session by its services (session-services.ts).
 */
export class Session {
  /** The system prompt as last built by the kernel (the session prompt plus the prompt hook's sections). */
  system: string;
  /** The transcript after the system prompt: frozen messages (frozen-messages.ts), added with `append`. */
  history: Message[];
  todos: TodoItem[];
  pending: PendingTurn | undefined;
  baseline: TokenBaseline | undefined;
  /** What the session's turns have used, for its limits. */
  usage: SessionUsage;
  /**
   * The message `transcript()` opens with: the same frozen message while the prompt is the same, so
   * what is derived from it (a provider's wire form, its token estimate) is kept like the history's.
   */
  #systemMessage: Message | undefined;

  constructor(
    readonly id: string,
    readonly prompt: string | undefined,
    /** The kernel session holding the session's tools, skills, taps and services; disposed when it closes. */
    readonly scope: KernelSession,
    state?: Pick<SessionState, "messages" | "pending">,
  ) {
    this.system = prompt ?? "";
    this.history = freezeMessages(state?.messages ?? []);
    this.todos = [];
    this.pending = state?.pending ? structuredClone(state.pending) : undefined;
    this.baseline = undefined;
    this.usage = noUsage();
  }

  /** Adds messages to the transcript, frozen: from here on they are values. */
  append(...messages: Message[]): void {
    for (const message of messages) this.history.push(freezeMessage(message));
  }

  /** The transcript a provider would be sent: the system message first, when there is one. */
  transcript(): Message[] {
    if (!this.system) return this.history.slice();
    if (this.#systemMessage?.content !== this.system) this.#systemMessage = freezeMessage({ role: "system", content: this.system });
    // concat sizes the copy once; `[system, ...history]` grows it element by element (3.6x the bytes at 1000 messages).
    return [this.#systemMessage].concat(this.history);
  }

  /** Drops the transcript, any pending turn and its services' state (the todo list); the prompt and equipment stay. */
  reset(): void {
    this.history = [];
    this.pending = undefined;
    this.scope.restoreState({});
  }

  /** The state to save; `copy: false` shares the live transcript, for a store that serialises it at once. */
  toState(copy = true): SessionState {
    const clone = copy ? structuredClone : same;
    // The services' values are theirs to copy (the contract's): only the transcript is copied here.
    const state: SessionState = { version: 1, sessionId: this.id, messages: clone(this.history), services: this.scope.saveState() };
    if (this.prompt !== undefined) state.prompt = this.prompt;
    if (this.pending) state.pending = clone(this.pending);
    return state;
  }
}

function same<T>(value: T): T {
  return value;
}
