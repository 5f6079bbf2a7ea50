import { afterEach, describe, expect, it, vi } from "vitest";
import { DeadlineTimers } from "./deadline-timers.js";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("deadline timers", () => {
  it("sets one timer for the calls that share a deadline, and fires each one not cancelled", async () => {
    const setTimer = vi.spyOn(globalThis, "setTimeout");
    const timers = new DeadlineTimers();
    const fired: string[] = [];
    const deadline = Date.now() + 5;
    let done!: () => void;
    const last = new Promise<void>((resolve) => (done = resolve));
    timers.at(deadline, () => fired.push("a"));
    const cancelB = timers.at(deadline, () => fired.push("b"));
    timers.at(deadline, () => {
      fired.push("c");
      done();
    });
    expect(setTimer).toHaveBeenCalledTimes(1);
    cancelB();
    await last;
    expect(fired).toEqual(["a", "c"]);
  });

  it("clears the timer when every call on it is cancelled", () => {
    const clearTimer = vi.spyOn(globalThis, "clearTimeout");
    const timers = new DeadlineTimers();
    const deadline = Date.now() + 60_000;
    const cancels = [timers.at(deadline, () => {}), timers.at(deadline, () => {})];
    cancels[0]?.();
    expect(clearTimer).not.toHaveBeenCalled();
    cancels[1]?.();
    cancels[1]?.();
    expect(clearTimer).toHaveBeenCalledTimes(1);
  });
});
