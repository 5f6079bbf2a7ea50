import { describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createKernel } from "../kernel.js";
import { createAgent } from "./agent.js";
import type { SessionState } from "./session-state.js";
import { memorySessionStore } from "./session-store.js";

const state = (sessionId: string, text: string): SessionState => ({ version: 1, sessionId, messages: [{ role: "user", content: text }] });

describe("the in-memory session store", () => {
  it("keeps at most maxSessions, dropping the least recently used", async () => {
    const store = memorySessionStore({ maxSessions: 2 });
    store.save("a", state("a", "one"));
    store.save("b", state("b", "two"));
    expect((await store.get("a"))?.messages).toEqual([{ role: "user", content: "one" }]);
    store.save("c", state("c", "three"));
    expect(await store.get("b")).toBeUndefined();
    expect((await store.get("a"))?.sessionId).toBe("a");
    expect((await store.get("c"))?.sessionId).toBe("c");
    store.release("a");
    expect(await store.get("a")).toBeUndefined();
  });

  it("is released on close when the agent made it, and kept when the application gave it", async () => {
    const given = memorySessionStore();
    const transcripts: number[] = [];
    for (const store of [undefined, given]) {
      const agent = createAgent({ model: scriptedModel(["one", "two"]), kernel: createKernel({ logger: memoryLogger() }), ...(store ? { store } : {}) });
      await agent.startSession({ prompt: "Be brief.", sessionId: "s" });
      await agent.process("first");
      await agent.close();
      await agent.startSession({ sessionId: "s" });
      transcripts.push(agent.messages().length);
      await agent.close();
    }
    // The agent's own store forgot the closed session (a fresh start, no prompt); the given one resumed it (prompt, question, answer).
    expect(transcripts).toEqual([0, 3]);
  });
});
