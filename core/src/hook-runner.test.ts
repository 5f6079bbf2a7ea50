import { describe, expect, it } from "vitest";
import { hookRunner } from "./hook-runner.js";

describe("hookRunner", () => {
  it("runs taps by stage, same-stage taps in the order given", async () => {
    const ran: string[] = [];
    const tap = (name: string, stage: number) => ({ stage, fn: async () => void ran.push(name) });
    await hookRunner("series", 0, [tap("b0", 0), tap("a10", 10), tap("c-5", -5), tap("d0", 0)]).promise([]);
    expect(ran).toEqual(["c-5", "b0", "d0", "a10"]);
  });

  it("series: each tap waits for the one before and the call resolves to undefined", async () => {
    const ran: string[] = [];
    const slow = {
      stage: 0,
      fn: async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        ran.push("slow");
      },
    };
    const fast = { stage: 0, fn: async () => void ran.push("fast") };
    expect(await hookRunner("series", 0, [slow, fast]).promise([])).toBeUndefined();
    expect(ran).toEqual(["slow", "fast"]);
  });

  it("waterfall: each tap gets the value the tap before returned, or the one before that when it returned undefined", async () => {
    const seen: unknown[] = [];
    const run = hookRunner("waterfall", 2, [
      {
        stage: 0,
        fn: async (value: number, extra: string) => {
          seen.push([value, extra]);
          return value + 1;
        },
      },
      { stage: 1, fn: async (value: number) => void seen.push(value) },
      { stage: 2, fn: async (value: number) => value * 10 },
    ]);
    expect(await run.promise([1, "x"])).toBe(20);
    expect(seen).toEqual([[1, "x"], 2]);
    expect(await hookRunner("waterfall", 1, []).promise(["as given"])).toBe("as given");
  });

  it("bail: the first result other than undefined ends the call, and the taps after it do not run", async () => {
    const ran: string[] = [];
    const answering = (name: string, answer: string | undefined) => ({
      stage: 0,
      fn: async () => {
        ran.push(name);
        return answer;
      },
    });
    const run = hookRunner("bail", 1, [answering("first", undefined), answering("second", "verdict"), answering("third", "late")]);
    expect(await run.promise(["call"])).toBe("verdict");
    expect(ran).toEqual(["first", "second"]);
    expect(await hookRunner("bail", 1, [{ stage: 0, fn: async () => undefined }]).promise(["call"])).toBeUndefined();
  });

  it("sync: call runs every tap before it returns", () => {
    const seen: unknown[] = [];
    hookRunner("sync", 2, [
      { stage: 0, fn: (event: string, context: string) => void seen.push([event, context]) },
      { stage: 0, fn: (event: string) => void seen.push(event) },
    ]).call(["event", "context"]);
    expect(seen).toEqual([["event", "context"], "event"]);
  });

  it("a tap gets the hook's declared arguments: extra ones are dropped, missing ones are undefined", async () => {
    const got: unknown[][] = [];
    const run = hookRunner("series", 2, [{ stage: 0, fn: async (...args: unknown[]) => void got.push(args) }]);
    await run.promise(["a", "b", "c"]);
    await run.promise(["a"]);
    expect(got).toEqual([
      ["a", "b"],
      ["a", undefined],
    ]);
  });

  it("a tap that rejects rejects the call and the taps after it do not run", async () => {
    const ran: string[] = [];
    const run = hookRunner("series", 0, [
      { stage: 0, fn: async () => Promise.reject(new Error("tap broke")) },
      { stage: 1, fn: async () => void ran.push("after") },
    ]);
    await expect(run.promise([])).rejects.toThrow("tap broke");
    expect(ran).toEqual([]);
    const throwing = hookRunner("sync", 0, [
      {
        stage: 0,
        fn: () => {
          throw new Error("observer broke");
        },
      },
      { stage: 1, fn: () => void ran.push("after") },
    ]);
    expect(() => throwing.call([])).toThrow("observer broke");
    expect(ran).toEqual([]);
  });
});
