import { describe, expect, it, vi } from "vitest";
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
