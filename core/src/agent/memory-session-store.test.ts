import { describe, expect, it } from "vitest";
import { memoryLogger } from "@weft/sdk";
import { scriptedModel } from "@weft/sdk/testing";
import { createKernel } from "../kernel.js";
import { createAgent } from "./agent.js";
import type { SessionState } from "./session-state.js";
import { memorySessionStore } from "./session-store.js";
import { Notes, notesPlugin } from "./test-fixtures/notes-plugin.js";

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

  it("is not where an agent given no store keeps its session: nothing could read it back, so nothing is saved", async () => {
    class CountedNotes extends Notes {
      saves = 0;
      override saveSessionState(session: Parameters<Notes["saveSessionState"]>[0]): unknown {
        this.saves++;
        return super.saveSessionState(session);
      }
    }
    const saves: number[] = [];
    for (const store of [memorySessionStore(), undefined]) {
      const notes = new CountedNotes();
      const kernel = createKernel({ logger: memoryLogger() });
      await kernel.use(notesPlugin(notes));
      const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: "note", arguments: { text: "Ada" } }] }, "Noted.", "Again."]), kernel, ...(store ? { store } : {}) });
      await agent.startSession({ messages: [{ role: "user", content: "earlier" }] });
      await agent.process("remember Ada");
      await agent.resetSession();
      await agent.process("and again");
      expect(agent.messages().map((message) => message.content)).toEqual(["and again", "Again."]);
      await agent.close();
      await kernel.close();
      saves.push(notes.saves);
    }
    // A given store gets the session when it starts (with given messages), after each turn and on reset; the agent alone, never.
    expect(saves).toEqual([4, 0]);
  });
});
