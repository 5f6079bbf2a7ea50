import { describe, expect, it, vi } from "vitest";
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
