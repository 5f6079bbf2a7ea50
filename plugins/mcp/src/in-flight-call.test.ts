import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { DeadlineTimers, type ToolProgress } from "@weft/sdk";
import type { CallResult } from "./flatten-result.js";
import { InFlightCall, type CallStarter } from "./in-flight-call.js";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

/** A call the server never answers: it ends only when cancelled, as the SDK's request does. */
function unanswered(progress: ((progress: ToolProgress) => void)[] = []): CallStarter {
  return ({ signal, onprogress }) => {
    progress.push(onprogress);
    return new Promise<CallResult>((_resolve, reject) => signal.addEventListener("abort", () => reject(signal.reason), { once: true }));
  };
}

const watcher = { signal: new AbortController().signal, onProgress() {} };

it("gives the calls of one round one quiet-time timer, and a call that reports progress its own new ceiling", async () => {
  const setTimer = vi.spyOn(globalThis, "setTimeout");
  const timers = new DeadlineTimers();
  const reports: ((progress: ToolProgress) => void)[] = [];
  const calls = [new InFlightCall(unanswered(reports), 1_000, timers, () => {}), new InFlightCall(unanswered(reports), 1_000, timers, () => {})];
  expect(setTimer).toHaveBeenCalledTimes(1);
  const ends = calls.map((call) => call.next(watcher));

  vi.advanceTimersByTime(600);
  reports[1]?.({ progress: 1 });
  vi.advanceTimersByTime(400);
  expect(await ends[0]).toMatchObject({ kind: "failed", timedOut: true, error: new Error("no result or progress for 1000 ms") });
  expect(calls[1]?.done).toBe(false);
  vi.advanceTimersByTime(600);
  expect(await ends[1]).toMatchObject({ kind: "failed", timedOut: true });
});

it("holds the quiet time while a question waits for the host, and runs it again once answered", async () => {
  const call = new InFlightCall(unanswered(), 1_000, new DeadlineTimers(), () => {});
  call.elicit({} as never);
  vi.advanceTimersByTime(5_000);
  expect(call.done).toBe(false);
  call.answered();
  vi.advanceTimersByTime(1_000);
  expect(await call.next(watcher)).toMatchObject({ kind: "elicitation" });
  expect(await call.next(watcher)).toMatchObject({ kind: "failed", timedOut: true });
});
