import { describe, expect, it } from "vitest";
import { HookSet } from "./hook-set.js";

const context = { turn: 0, caller: "test" };

describe("a session's hook set", () => {
  it("runs the kernel's point until something taps the hook in the session, then its own over it", async () => {
    const kernel = new HookSet();
    const session = kernel.child();
    expect(session.prompt).toBe(kernel.prompt);
    expect(session.feedback).toBe(kernel.feedback);

    kernel.prompt.add({ owner: "kernel", stage: 0, fn: async (sections: string[]) => [...sections, "kernel"] });
    const own = session.tappable("prompt");
    expect(session.prompt).toBe(own);
    expect(own.parent).toBe(kernel.prompt);
    // Another hook of the session is still the kernel's.
    expect(session.compact).toBe(kernel.compact);

    own.add({ owner: "session", stage: -10, fn: async (sections: string[]) => [...sections, "session"] });
    // A tap added to the kernel later reaches the session too; stages order both levels' taps.
    kernel.prompt.add({ owner: "late", stage: 10, fn: async (sections: string[]) => [...sections, "late"] });
    expect(await session.prompt.promise([], context)).toEqual(["session", "kernel", "late"]);
    expect(await kernel.prompt.promise([], context)).toEqual(["kernel", "late"]);
  });
});
