import { getEventListeners } from "node:events";
import { afterEach, beforeEach, expect, it, vi } from "vitest";
import { AbortFanout, type ToolProgress } from "@weft/sdk";
import { InFlightCall, type SentCall } from "./in-flight-call.js";
import { QuietClock } from "./quiet-clock.js";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

let lastCall = 0;

/** A call sent as `sent` has it, among the `calls` in flight its `clock` reads. */
function started(sent: SentCall, calls = new Map<string, InFlightCall>(), clock = new QuietClock(calls), aborts = new AbortFanout()): InFlightCall {
  const call = new InFlightCall(`weft-call:${++lastCall}`, 1_000, calls, clock, aborts);
  call.sent(sent);
  return call;
}

/** A call the server never answers: it ends only when cancelled. */
const unanswered: SentCall = { cancel: (call, reason) => call.failed(reason) };

const watcher = { signal: new AbortController().signal, onProgress() {} };

it("watches a connection's calls on one timer, whenever they start and however often they report progress, and ends each at its own ceiling", async () => {
  const setTimer = vi.spyOn(globalThis, "setTimeout");
  const calls = new Map<string, InFlightCall>();
  const clock = new QuietClock(calls);
  const first = started(unanswered, calls, clock);
  vi.advanceTimersByTime(300);
  const second = started(unanswered, calls, clock);
  const ends = [first.next(watcher), second.next(watcher)];
  vi.advanceTimersByTime(300);
  // At 600 ms the first call reports progress, five times: its ceiling moves to 1600 ms.
  for (let progress = 1; progress <= 5; progress++) first.progress({ progress });
  expect(setTimer).toHaveBeenCalledTimes(1);
  // The timer set for 1000 ms finds nothing due and is set for the second call's 1300 ms.
  vi.advanceTimersByTime(700);
  expect(await ends[1]).toMatchObject({ kind: "failed", timedOut: true, error: new Error("no result or progress for 1000 ms") });
  expect(first.done).toBe(false);
  vi.advanceTimersByTime(300);
  expect(await ends[0]).toMatchObject({ kind: "failed", timedOut: true });
  expect(setTimer).toHaveBeenCalledTimes(3);
});

it("leaves nothing running once the last call has ended: its timer fires once, finds nothing due and is not set again", async () => {
  const call = started({ cancel() {} });
  call.succeeded({ content: [{ type: "text", text: "done" }] });
  expect(await call.next(watcher)).toMatchObject({ kind: "result" });
  expect(vi.getTimerCount()).toBe(1);
  vi.advanceTimersByTime(1_000);
  expect(vi.getTimerCount()).toBe(0);
});

it("holds the quiet time while a question waits for the host, and runs it again once answered", async () => {
  const call = started(unanswered);
  call.elicit({} as never);
  vi.advanceTimersByTime(5_000);
  expect(call.done).toBe(false);
  call.answered();
  vi.advanceTimersByTime(1_000);
  expect(await call.next(watcher)).toMatchObject({ kind: "elicitation" });
  expect(await call.next(watcher)).toMatchObject({ kind: "failed", timedOut: true });
});

it("cancels the call once with the waiting execute's abort reason, and leaves no listener on a signal once its next has its answer", async () => {
  const cancels: unknown[] = [];
  const aborts = new AbortFanout();
  const sent: SentCall = { cancel: (_call, reason) => cancels.push(reason) };
  const [first, second] = [started(sent, undefined, undefined, aborts), started(sent, undefined, undefined, aborts)];
  // Two calls waited for under one signal (the calls of a round share theirs): one listener for both.
  const round = new AbortController();
  const waiting = [first.next({ signal: round.signal, onProgress() {} }), second.next({ signal: round.signal, onProgress() {} })];
  expect(getEventListeners(round.signal, "abort")).toHaveLength(1);
  round.abort("stop");
  expect(cancels).toEqual(["stop", "stop"]);
  first.succeeded({ content: [] });
  second.succeeded({ content: [] });
  expect(await Promise.all(waiting)).toMatchObject([{ kind: "result" }, { kind: "result" }]);
  // A call that ends on its own stops listening too.
  const third = started(sent, undefined, undefined, aborts);
  const turn = new AbortController();
  const answered = third.next({ signal: turn.signal, onProgress() {} });
  expect(getEventListeners(turn.signal, "abort")).toHaveLength(1);
  third.succeeded({ content: [] });
  await answered;
  expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
  // A later execute that finds the call ended neither cancels it nor listens.
  expect(await third.next({ signal: turn.signal, onProgress() {} })).toMatchObject({ kind: "result" });
  expect(getEventListeners(turn.signal, "abort")).toHaveLength(0);
  expect(cancels).toEqual(["stop", "stop"]);
});

it("hands the progress the connection routes to it to the execute waiting now, and none once the call has ended", async () => {
  const call = started({ cancel() {} });
  const heard: ToolProgress[] = [];
  const waiting = call.next({ signal: new AbortController().signal, onProgress: (progress) => heard.push(progress) });
  call.progress({ progress: 1, total: 2 });
  call.succeeded({ content: [] });
  await waiting;
  call.progress({ progress: 2, total: 2 });
  expect(heard).toEqual([{ progress: 1, total: 2 }]);
});
