import { afterEach, describe, expect, it, vi } from "vitest";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";
import { DeadlineTimers } from "./deadline-timers.js";
import { createKernel } from "./kernel.js";

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

describe("a call's signal", () => {
  it("read only after the caller aborted, is aborted with the caller's reason (it is made on first read)", async () => {
    const kernel = createKernel();
    const seen: unknown[] = [];
    let release!: () => void;
    const later = new Promise<void>((resolve) => (release = resolve));
    const tool = defineTool({
        name: "late_reader",
        description: "Reads its signal only after the caller aborted",
        input: Type.Object({}),
        execute: async (_args, ctx) => {
          await later;
          seen.push(ctx.signal.aborted, ctx.signal.reason);
          return { output: "done" };
        },
    });
    kernel.hooks.tools.tap((registrar) => void registrar.add(tool));
    await kernel.ready();
    const caller = new AbortController();
    const result = kernel.execute({ name: "late_reader", arguments: {} }, { signal: caller.signal });
    caller.abort("the user left");
    expect(await result).toEqual({ output: "late_reader was aborted", isError: true, metadata: { aborted: true } });
    release();
    await vi.waitFor(() => expect(seen).toEqual([true, "the user left"]));
    await kernel.close();
  });
});
