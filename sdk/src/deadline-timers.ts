/**
 * Timers for call deadlines, one per distinct deadline: the calls of one tool round start in the same
 * millisecond with the same limit, so they share one timer instead of setting one each. The execute
 * path holds its calls' time limits this way, and a tool source can hold its own ceilings alike.
 */
export class DeadlineTimers {
  readonly #due = new Map<number, { timer: ReturnType<typeof setTimeout>; waiting: Set<() => void> }>();

  /** Runs `onDeadline` at `deadline` (Date.now() time); the returned function cancels it. */
  at(deadline: number, onDeadline: () => void): () => void {
    let entry = this.#due.get(deadline);
    if (!entry) {
      const waiting = new Set<() => void>();
      const timer = setTimeout(() => {
        this.#due.delete(deadline);
        for (const fire of waiting) fire();
      }, deadline - Date.now());
      entry = { timer, waiting };
      this.#due.set(deadline, entry);
    }
    const { timer, waiting } = entry;
    waiting.add(onDeadline);
    return () => {
      if (!waiting.delete(onDeadline) || waiting.size > 0) return;
      clearTimeout(timer);
      if (this.#due.get(deadline)?.waiting === waiting) this.#due.delete(deadline);
    };
  }
}
