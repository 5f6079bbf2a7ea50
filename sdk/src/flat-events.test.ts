import { describe, expect, it } from "vitest";
import type { StreamEvent } from "./chat-model.js";
import { flatEvents } from "./flat-events.js";

const text = (delta: string): StreamEvent => ({ type: "text", delta });

describe("flatEvents", () => {
  it("hands out the events of each batch in order, skipping empty batches", async () => {
    async function* batches() {
      yield [text("a"), text("b")];
      yield [];
      yield [text("c")];
    }
    const events: StreamEvent[] = [];
    for await (const event of flatEvents(batches())) events.push(event);
    expect(events).toEqual([text("a"), text("b"), text("c")]);
  });

  it("reads a batch only once the events before it are out, so they reach the caller before its error", async () => {
    const read: number[] = [];
    async function* batches() {
      read.push(1);
      yield [text("a"), text("b")];
      read.push(2);
      throw new Error("bad chunk");
    }
    const events = flatEvents(batches());
    expect(await events.next()).toEqual({ done: false, value: text("a") });
    expect(await events.next()).toEqual({ done: false, value: text("b") });
    expect(read).toEqual([1]);
    await expect(events.next()).rejects.toThrow("bad chunk");
  });

  it("closes the batches when the caller stops early", async () => {
    let closed = false;
    async function* batches() {
      try {
        yield [text("a"), text("b")];
      } finally {
        closed = true;
      }
    }
    for await (const event of flatEvents(batches())) {
      expect(event).toEqual(text("a"));
      break;
    }
    expect(closed).toBe(true);
  });
});
