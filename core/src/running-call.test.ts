import { afterEach, describe, expect, it, vi } from "vitest";
import { getEventListeners } from "node:events";
import { Type } from "typebox";
import { defineTool } from "@weft/sdk";
import { createKernel } from "./kernel.js";

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

/** vi.waitFor's 1 s default is short on a loaded machine; these wait for microtasks only, so any bound is safe. */
const ROOMY = { timeout: 10_000, interval: 20 };

describe("the caller's signal", () => {
  it("is followed with one listener for all the calls of a round, removed once the last is done; its abort reaches each", async () => {
    const kernel = createKernel();
    const releases: (() => void)[] = [];
    const tool = defineTool({
      name: "waiter",
      description: "Answers when released",
      input: Type.Object({}),
      execute: (_args, ctx) =>
        new Promise<{ output: string }>((resolve) => {
          releases.push(() => resolve({ output: "released" }));
          ctx.signal.addEventListener("abort", () => resolve({ output: `stopped: ${String(ctx.signal.reason)}` }));
        }),
    });
    kernel.hooks.tools.tap((registrar) => void registrar.add(tool));
    await kernel.ready();
    const caller = new AbortController();
    const round = () => Array.from({ length: 20 }, () => kernel.execute({ name: "waiter", arguments: {} }, { signal: caller.signal }));

    const first = round();
    await vi.waitFor(() => expect(releases).toHaveLength(20), ROOMY);
    // Twenty listeners on one signal would also make Node 20 warn of a leak (past ten).
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(1);
    for (const release of releases.splice(0)) release();
    expect((await Promise.all(first)).map((result) => result.output)).toEqual(Array(20).fill("released"));
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);

    const second = round();
    await vi.waitFor(() => expect(releases).toHaveLength(20), ROOMY);
    caller.abort("the user left");
    expect(await Promise.all(second)).toEqual(Array(20).fill({ output: "waiter was aborted", isError: true, metadata: { aborted: true } }));
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
    await kernel.close();
  });
});

describe("the calls of a round", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A tool that keeps its call's signal and answers when released, or when its signal aborts. */
  function holding(name: string, signals: AbortSignal[], releases: Map<AbortSignal[], (() => void)[]>, timeoutMs?: number) {
    const list: (() => void)[] = [];
    releases.set(signals, list);
    return defineTool({
      name,
      description: "Answers when released",
      input: Type.Object({}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      execute: (_args, ctx) =>
        new Promise<{ output: string; isError?: boolean }>((resolve) => {
          signals.push(ctx.signal);
          list.push(() => resolve({ output: `${name} released` }));
          ctx.signal.addEventListener("abort", () => resolve({ output: `${name} stopped: ${String(ctx.signal.reason?.message ?? ctx.signal.reason)}`, isError: true }));
        }),
    });
  }

  it("share one signal for the calls of a tool started together, each still answering on its own; another tool's calls have another", async () => {
    const kernel = createKernel();
    const releases = new Map<AbortSignal[], (() => void)[]>();
    const [waits, others] = [[] as AbortSignal[], [] as AbortSignal[]];
    kernel.hooks.tools.tap((registrar) => {
      registrar.add(holding("waiter", waits, releases));
      registrar.add(holding("other", others, releases));
    });
    await kernel.ready();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    const caller = new AbortController();
    // Started in one millisecond (the clock held there: a loaded machine may cross one between two calls).
    vi.useFakeTimers({ toFake: ["Date"] });
    const calls = Array.from({ length: 20 }, (_, index) => kernel.execute({ name: index % 2 ? "other" : "waiter", arguments: {} }, { signal: caller.signal }));
    await vi.waitFor(() => expect(waits.length + others.length).toBe(20), ROOMY);
    vi.useRealTimers();
    expect(new Set(waits).size).toBe(1);
    expect(new Set(others).size).toBe(1);
    expect(waits[0]).not.toBe(others[0]);
    // The first waiter's answer ends its call alone.
    releases.get(waits)?.[0]?.();
    expect(await calls[0]).toEqual({ output: "waiter released" });
    expect(waits[0]?.aborted).toBe(false);
    caller.abort("the user left");
    const results = await Promise.all(calls.slice(1));
    expect(results.map((result) => result.output)).toEqual(Array.from({ length: 19 }, (_, index) => `${index % 2 ? "waiter" : "other"} was aborted`));
    expect(waits[0]?.reason).toBe("the user left");
    // Ten listeners on the shared signal are no leak: Node's warning past ten is lifted for it.
    await new Promise((resolve) => setImmediate(resolve));
    process.off("warning", onWarning);
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    await kernel.close();
  });

  it("time out together at a shared deadline, each with its own tool's words; a call started later has a signal of its own", async () => {
    const kernel = createKernel();
    const releases = new Map<AbortSignal[], (() => void)[]>();
    const [slows, lates] = [[] as AbortSignal[], [] as AbortSignal[]];
    kernel.hooks.tools.tap((registrar) => {
      registrar.add(holding("slow", slows, releases, 40));
      registrar.add(holding("late", lates, releases, 40));
    });
    await kernel.ready();
    const round = await Promise.all([kernel.execute({ name: "slow", arguments: {} }), kernel.execute({ name: "late", arguments: {} }), kernel.execute({ name: "slow", arguments: {} })]);
    expect(round.map((result) => result.output)).toEqual(["slow stopped: slow timed out after 40 ms", "late stopped: late timed out after 40 ms", "slow stopped: slow timed out after 40 ms"]);
    const next = kernel.execute({ name: "slow", arguments: {} });
    await vi.waitFor(() => expect(slows).toHaveLength(3), ROOMY);
    expect(slows[2]).not.toBe(slows[0]);
    expect(slows[2]?.aborted).toBe(false);
    releases.get(slows)?.[2]?.();
    expect(await next).toEqual({ output: "slow released" });
    await kernel.close();
  });
});
