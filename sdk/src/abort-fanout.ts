/** What follows a caller's signal: told once when it aborts. */
export interface AbortFollower {
  handleEvent(): void;
}

/**
 * One abort listener per caller's signal, fanned out to the calls that follow it. The calls of one tool
 * round share their turn's signal; with a listener each, Node's EventTarget walked every listener already
 * there on each add (its duplicate check), so a round cost O(n²), and past ten, Node 20 printed a
 * MaxListenersExceededWarning ("possible EventTarget memory leak") on every turn with more calls.
 * The execute path follows its callers' signals this way, and a tool source can follow a long-lived
 * signal of its own alike (the A2A plugin's closing, which every call in flight follows).
 */
export class AbortFanout {
  readonly #following = new Map<AbortSignal, Followers>();

  /** `follower` hears `signal`'s abort until it unfollows; the signal must not be aborted yet. */
  follow(signal: AbortSignal, follower: AbortFollower): void {
    let followers = this.#following.get(signal);
    if (!followers) {
      followers = new Followers(() => void this.#following.delete(signal));
      this.#following.set(signal, followers);
      signal.addEventListener("abort", followers, { once: true });
    }
    followers.add(follower);
  }

  unfollow(signal: AbortSignal, follower: AbortFollower): void {
    const followers = this.#following.get(signal);
    if (!followers?.delete(follower) || followers.size > 0) return;
    // The round's last call is done: the signal (a turn's, which lives on) keeps no listener of ours.
    this.#following.delete(signal);
    signal.removeEventListener("abort", followers);
  }
}

/** The calls following one signal, and that signal's one listener. */
class Followers extends Set<AbortFollower> {
  constructor(private readonly forget: () => void) {
    super();
  }

  handleEvent(): void {
    // Forgotten first: each follower settles (and unfollows) as it is told, and finds nothing left to remove.
    this.forget();
    for (const follower of this) follower.handleEvent();
  }
}
