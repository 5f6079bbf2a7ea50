import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { SessionConflictError } from "../errors.js";
import type { SessionSnapshot, SessionStore, TurnRecord } from "../session-store.js";
import type { Suspension } from "../tool.js";

/** The test framework's registration functions; vitest's and node:test's both fit. */
export interface SessionStoreTestApi {
  describe(name: string, fn: () => void): unknown;
  it(name: string, fn: () => Promise<void>): unknown;
}

export interface SessionStoreHarness {
  /** A store over fresh, empty storage; the suite closes it. */
  fresh(): Promise<SessionStore>;
  /**
   * A second handle on the same storage as `store` (another connection, another instance on the same
   * file), as a second worker would hold; the suite closes it. Defaults to `store` itself.
   */
  another?(store: SessionStore): Promise<SessionStore>;
}

const approval: Suspension = { kind: "approval", message: "Refund order 42?", callId: "call-1", toolName: "refund" };

/** A snapshot with a bit of everything a real session holds. */
export function sampleSnapshot(text = "hello"): SessionSnapshot {
  return {
    prompt: "You are terse.",
    messages: [
      { role: "user", content: text },
      { role: "assistant", content: "", toolCalls: [{ id: "call-1", name: "refund", arguments: { order: 42, note: "naïve ✓ \u0000" } }] },
    ],
    services: { todos: [{ content: "check the order", status: "pending" }], a2a: { contextIds: { billing: "ctx-7" } } },
  };
}

const assistantRecord: TurnRecord = {
  kind: "assistant",
  turnId: "turn-1",
  message: { role: "assistant", content: "", toolCalls: [{ id: "call-2", name: "lookup", arguments: { q: "x" } }] },
};
const toolRecord: Extract<TurnRecord, { kind: "tool-result" }> = { kind: "tool-result", turnId: "turn-1", message: { role: "tool", toolCallId: "call-2", toolName: "lookup", content: "found" } };

/**
 * The behaviour every session store shares: round trips, optimistic concurrency (a stale write fails
 * with SessionConflictError and changes nothing, of two racing writers exactly one wins), write-ahead
 * records, listing and deletion. Register it from a test file:
 *
 *   import { describe, it } from "vitest";
 *   runSessionStoreConformance({ describe, it }, "sqlite", { fresh: async () => sqliteSessionStore({ file }) });
 */
export function runSessionStoreConformance(test: SessionStoreTestApi, name: string, harness: SessionStoreHarness): void {
  const another = harness.another ?? (async (store: SessionStore) => store);

  /** Runs `body` on a fresh store and closes whatever it opened, pass or fail. */
  const withStore = (body: (store: SessionStore, second: () => Promise<SessionStore>) => Promise<void>) => async () => {
    const store = await harness.fresh();
    const opened: SessionStore[] = [];
    try {
      await body(store, async () => {
        const handle = await another(store);
        if (handle !== store) opened.push(handle);
        return handle;
      });
    } finally {
      for (const handle of opened) await handle.close();
      await store.close();
    }
  };

  test.describe(`session store conformance: ${name}`, () => {
    test.it("knows no session it was never given", withStore(async (store) => {
      assert.equal(await store.load("nobody"), undefined);
      assert.deepEqual(await store.list(), []);
      assert.equal(await store.delete("nobody"), false);
    }));

    test.it("gives back exactly what was saved, as a copy, at version 1", withStore(async (store) => {
      const snapshot = { ...sampleSnapshot(), pending: { suspensions: [approval], turn: { slots: [{ call: { id: "call-1" } }], guard: [] } } };
      assert.equal(await store.save("s1", snapshot, 0), 1);
      const loaded = await store.load("s1");
      assert.ok(loaded);
      assert.deepEqual({ ...loaded, updatedAt: "" }, { ...snapshot, sessionId: "s1", version: 1, updatedAt: "", records: [] });
      assert.ok(!Number.isNaN(Date.parse(loaded.updatedAt)), `updatedAt ${loaded.updatedAt} is an ISO time`);
      loaded.messages.push({ role: "user", content: "mutated" });
      assert.equal((await store.load("s1"))?.messages.length, 2);
    }));

    test.it("keeps ids with any characters and large transcripts apart", withStore(async (store) => {
      const ids = ["a/b c?é", "a", "A", "../x", "名前"];
      const big = "x".repeat(1_000_000);
      for (const [index, id] of ids.entries()) await store.save(id, sampleSnapshot(index === 0 ? big : id), 0);
      for (const [index, id] of ids.entries()) assert.equal((await store.load(id))?.messages[0]?.content, index === 0 ? big : id);
    }));

    test.it("refuses to create a session that exists, and changes nothing", withStore(async (store) => {
      await store.save("s1", sampleSnapshot("first"), 0);
      const conflict = await rejection(store.save("s1", sampleSnapshot("second"), 0));
      assert.ok(conflict instanceof SessionConflictError, `a SessionConflictError, got ${String(conflict)}`);
      assert.equal(conflict.code, "SESSION_CONFLICT");
      assert.deepEqual([conflict.sessionId, conflict.expectedVersion, conflict.actualVersion], ["s1", 0, 1]);
      assert.equal(conflict.message, `session "s1" was written by someone else (expected version 0, it is at version 1); reload it and try again`);
      assert.equal((await store.load("s1"))?.messages[0]?.content, "first");
    }));

    test.it("refuses a save or an append based on a stale version, and changes nothing", withStore(async (store) => {
      await store.save("s1", sampleSnapshot("v1"), 0);
      assert.equal(await store.save("s1", sampleSnapshot("v2"), 1), 2);
      assert.ok((await rejection(store.save("s1", sampleSnapshot("stale"), 1))) instanceof SessionConflictError);
      assert.ok((await rejection(store.append("s1", assistantRecord, 1))) instanceof SessionConflictError);
      const loaded = await store.load("s1");
      assert.deepEqual([loaded?.version, loaded?.messages[0]?.content, loaded?.records], [2, "v2", []]);
    }));

    test.it("refuses an append to a session that does not exist", withStore(async (store) => {
      const conflict = await rejection(store.append("ghost", assistantRecord, 0));
      assert.ok(conflict instanceof SessionConflictError);
      assert.equal(conflict.actualVersion, undefined);
      assert.equal(conflict.message, `session "ghost" was written by someone else (expected version 0, it does not exist); reload it and try again`);
      assert.equal(await store.load("ghost"), undefined);
    }));

    test.it("keeps write-ahead records in order until the next save folds them in", withStore(async (store) => {
      await store.save("s1", sampleSnapshot(), 0);
      assert.equal(await store.append("s1", assistantRecord, 1), 2);
      assert.equal(await store.append("s1", toolRecord, 2), 3);
      const loaded = await store.load("s1");
      assert.deepEqual([loaded?.version, loaded?.records], [3, [assistantRecord, toolRecord]]);
      assert.equal(await store.save("s1", sampleSnapshot("after"), 3), 4);
      assert.deepEqual((await store.load("s1"))?.records, []);
    }));

    test.it("lets exactly one of two workers win a race to save the same version", withStore(async (store, second) => {
      const other = await second();
      await store.save("s1", sampleSnapshot("base"), 0);
      const outcomes = await Promise.allSettled([store.save("s1", sampleSnapshot("worker A"), 1), other.save("s1", sampleSnapshot("worker B"), 1)]);
      const won = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [index] : []));
      assert.equal(won.length, 1, "exactly one save wins");
      const lost = outcomes.find((outcome) => outcome.status === "rejected");
      assert.ok(lost?.status === "rejected" && lost.reason instanceof SessionConflictError);
      const loaded = await other.load("s1");
      assert.deepEqual([loaded?.version, loaded?.messages[0]?.content], [2, won[0] === 0 ? "worker A" : "worker B"]);
    }));

    test.it("lets exactly one of many racing appends on one version through", withStore(async (store, second) => {
      const other = await second();
      await store.save("s1", sampleSnapshot(), 0);
      const attempts = Array.from({ length: 8 }, (_, index) =>
        (index % 2 ? other : store).append("s1", { ...toolRecord, message: { ...toolRecord.message, content: `worker ${index}` } }, 1),
      );
      const outcomes = await Promise.allSettled(attempts);
      const won = outcomes.flatMap((outcome, index) => (outcome.status === "fulfilled" ? [index] : []));
      assert.equal(won.length, 1, "exactly one append wins");
      assert.ok(outcomes.every((outcome) => outcome.status === "fulfilled" || outcome.reason instanceof SessionConflictError));
      const records = (await store.load("s1"))?.records ?? [];
      assert.deepEqual(records.map((record) => record.message.content), [`worker ${won[0]}`]);
    }));

    test.it("sees the other worker's writes on the next load", withStore(async (store, second) => {
      const other = await second();
      await store.save("s1", sampleSnapshot(), 0);
      await other.append("s1", assistantRecord, 1);
      assert.deepEqual((await store.load("s1"))?.records, [assistantRecord]);
    }));

    test.it("lists sessions by latest write, counting messages and waiting suspensions", withStore(async (store) => {
      await store.save("s-a", sampleSnapshot(), 0);
      await sleep(5); // distinct write times, so the order is by time and not by a tie-break
      await store.save("s-b", { ...sampleSnapshot(), pending: { suspensions: [approval, { ...approval, callId: "call-9" }], turn: {} } }, 0);
      await sleep(5);
      await store.append("s-a", assistantRecord, 1);
      const all = await store.list();
      assert.deepEqual(
        all.map(({ sessionId, version, messages, pending }) => ({ sessionId, version, messages, pending })),
        [
          { sessionId: "s-a", version: 2, messages: 2, pending: 0 },
          { sessionId: "s-b", version: 1, messages: 2, pending: 2 },
        ],
      );
      assert.deepEqual((await store.list({ pending: true })).map((summary) => summary.sessionId), ["s-b"]);
      assert.deepEqual((await store.list({ limit: 1 })).map((summary) => summary.sessionId), ["s-a"]);
    }));

    test.it("deletes a session with its records; a write based on it then conflicts", withStore(async (store) => {
      await store.save("s1", sampleSnapshot(), 0);
      await store.append("s1", assistantRecord, 1);
      await store.save("s2", sampleSnapshot(), 0);
      assert.equal(await store.delete("s1"), true);
      assert.equal(await store.load("s1"), undefined);
      assert.equal(await store.delete("s1"), false);
      assert.ok((await rejection(store.save("s1", sampleSnapshot(), 2))) instanceof SessionConflictError);
      assert.equal(await store.save("s1", sampleSnapshot("anew"), 0), 1);
      assert.deepEqual((await store.load("s1"))?.records, []);
      assert.equal((await store.load("s2"))?.version, 1);
    }));
  });
}

async function rejection(promise: Promise<unknown>): Promise<SessionConflictError | Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new assert.AssertionError({ message: "expected the write to be refused" });
}
