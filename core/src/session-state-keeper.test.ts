import { afterEach, describe, expect, it } from "vitest";
import { keepsSessionState, memoryLogger } from "@weft/sdk";
import type { Kernel, MemoryLogger } from "@weft/sdk";
import { Notes, notesPlugin } from "./agent/test-fixtures/notes-plugin.js";
import { createKernel } from "./kernel.js";

const kernels: Kernel[] = [];
afterEach(async () => {
  await Promise.all(kernels.splice(0).map((kernel) => kernel.close()));
});

async function kernelWithNotes(notes: Notes | undefined, logger: MemoryLogger = memoryLogger()): Promise<Kernel> {
  const kernel = createKernel({ logger });
  kernels.push(kernel);
  if (notes) await kernel.use(notesPlugin(notes));
  return kernel;
}

describe("state a session's services keep with it", () => {
  it("collects a kernel service's value for each session apart, and hands it back to a new kernel", async () => {
    const notes = new Notes();
    const kernel = await kernelWithNotes(notes);
    const first = await kernel.session({ id: "a" });
    const second = await kernel.session({ id: "b" });
    notes.add("a", "asked about invoices");
    expect(first.saveState()).toEqual({ "test.notes": ["asked about invoices"] });
    expect(second.saveState()).toEqual({});

    const elsewhere = new Notes();
    const resumed = await (await kernelWithNotes(elsewhere)).session({ id: "a" });
    resumed.restoreState(first.saveState());
    expect(elsewhere.bySession.get("a")).toEqual(["asked about invoices"]);
  });

  it("keeps names no service claims as they are, and sorts the record by name", async () => {
    const kernel = await kernelWithNotes(undefined);
    const session = await kernel.session({ id: "a" });
    session.provide("todos", todoService([{ content: "ship", status: "pending" }]));
    session.restoreState({ "z.other": { kept: true }, "test.notes": ["from a run with the plugin"] });
    const saved = session.saveState();
    expect(saved).toEqual({ "test.notes": ["from a run with the plugin"], todos: [{ content: "ship", status: "pending" }], "z.other": { kept: true } });
    expect(Object.keys(saved)).toEqual(["test.notes", "todos", "z.other"]);
  });

  it("removes a service's entry when it saves undefined, and forgets every service's state on restoreState({})", async () => {
    const notes = new Notes();
    const session = await (await kernelWithNotes(notes)).session({ id: "a" });
    session.restoreState({ "test.notes": ["old"], "z.other": 1 });
    notes.forgetSessionState({ id: "a" });
    expect(session.saveState()).toEqual({ "z.other": 1 });
    session.restoreState({ "test.notes": ["again"] });
    session.restoreState({});
    expect(notes.bySession.has("a")).toBe(false);
    expect(session.saveState()).toEqual({});
  });

  it("keeps the last value of a service whose save throws, and logs a warning naming it and the session", async () => {
    const notes = new Notes();
    const logger = memoryLogger();
    const session = await (await kernelWithNotes(notes, logger)).session({ id: "a" });
    notes.add("a", "first");
    session.saveState();
    notes.add("a", "second");
    notes.failSave = true;
    expect(session.saveState()).toEqual({ "test.notes": ["first"] });
    expect(logger.warnings()).toEqual([`the "test.notes" service could not save the state of session a (disk full); keeping what it saved before`]);
  });

  it("logs a value a service refuses to restore, and keeps it stored until the service saves its own", async () => {
    const notes = new Notes();
    const logger = memoryLogger();
    const session = await (await kernelWithNotes(notes, logger)).session({ id: "a" });
    session.restoreState({ "test.notes": "not a list" });
    expect(logger.warnings()).toEqual([`the "test.notes" service could not restore the state of session a: not a list of notes`]);
    expect(session.saveState()).toEqual({ "test.notes": "not a list" });
    notes.add("a", "fresh");
    expect(session.saveState()).toEqual({ "test.notes": ["fresh"] });
  });

  it("tells every service to forget a session when it is disposed", async () => {
    const notes = new Notes();
    const kernel = await kernelWithNotes(notes);
    const session = await kernel.session({ id: "a" });
    const other = await kernel.session({ id: "b" });
    session.restoreState({ "test.notes": ["mine"] });
    other.restoreState({ "test.notes": ["theirs"] });
    await session.dispose();
    expect([...notes.bySession]).toEqual([["b", ["theirs"]]]);
  });

  it("recognises a service that keeps session state only by all three methods", () => {
    expect(keepsSessionState(new Notes())).toBe(true);
    expect(keepsSessionState({ saveSessionState() {}, restoreSessionState() {} })).toBe(false);
    expect(keepsSessionState(null)).toBe(false);
  });
});

function todoService(items: { content: string; status: "pending" }[]) {
  return {
    get: () => items,
    set: () => {},
    saveSessionState: () => items,
    restoreSessionState: () => {},
    forgetSessionState: () => {},
  };
}
