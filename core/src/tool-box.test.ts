import { describe, expect, it } from "vitest";
import type { Tool } from "@weft/sdk";
import { ToolBox } from "./tool-box.js";

const source = { kind: "app", id: "test" } as const;
const tool = (name: string, output = name): Tool => ({
  name,
  description: `the ${name} tool`,
  inputSchema: { type: "object", properties: {} },
  execute: async () => ({ output }),
});

describe("ToolBox", () => {
  it("lists tools sorted by name with their source", () => {
    const box = new ToolBox();
    for (const name of ["zeta", "alpha", "Mid", "beta"]) box.add(tool(name), source);
    expect(box.list().map((t) => t.name)).toEqual(["Mid", "alpha", "beta", "zeta"]);
    expect(box.get("alpha")?.source).toEqual(source);
  });

  it("shadows a name while a later registration lives and restores it on removal", async () => {
    const box = new ToolBox();
    box.add(tool("read", "original"), source);
    const dispose = box.add(tool("read", "replacement"), { kind: "skill", id: "s" });
    expect(box.list()).toHaveLength(1);
    expect(box.get("read")?.source).toEqual({ kind: "skill", id: "s" });
    await dispose();
    await dispose();
    expect(box.get("read")?.source).toEqual(source);
  });

  it("hands out descriptors that cannot run the tool", () => {
    const box = new ToolBox();
    box.add(tool("read"), source);
    const described = box.get("read");
    expect(described).toEqual({ name: "read", description: "the read tool", inputSchema: { type: "object", properties: {} }, source });
    expect(Object.isFrozen(described)).toBe(true);
    expect(box.list().every((listed) => !("execute" in listed))).toBe(true);
    expect(box.registrations().every((listed) => !("execute" in listed))).toBe(true);
  });

  it("refuses an invalid name", () => {
    expect(() => new ToolBox().add(tool("bad name"), source)).toThrow('invalid tool name "bad name"');
  });

  it("stays consistent under many interleaved add/remove/list/get operations", async () => {
    const box = new ToolBox();
    const stable = Array.from({ length: 20 }, (_, i) => `stable_${String(i).padStart(2, "0")}`);
    for (const name of stable) box.add(tool(name), source);
    const workers = Array.from({ length: 50 }, async (_, worker) => {
      for (let round = 0; round < 40; round++) {
        const name = `w${worker}_${round % 5}`;
        const dispose = box.add(tool(name), source);
        await Promise.resolve();
        const listed = box.list().map((t) => t.name);
        expect(listed).toEqual([...listed].sort());
        expect(listed).toEqual(expect.arrayContaining([...stable, name]));
        expect(box.get(name)?.name).toBe(name);
        await new Promise((resolve) => setImmediate(resolve));
        await dispose();
      }
    });
    await Promise.all(workers);
    expect(box.list().map((t) => t.name)).toEqual(stable);
  });
});

describe("ToolBox.disable", () => {
  it("hides names from list and get until disposed", async () => {
    const box = new ToolBox();
    box.add(tool("bash"), source);
    box.add(tool("read"), source);
    const undo = box.disable(["bash", "never_registered"]);
    expect(box.list().map((t) => t.name)).toEqual(["read"]);
    expect(box.get("bash")).toBeUndefined();
    await undo();
    expect(box.list().map((t) => t.name)).toEqual(["bash", "read"]);
  });
});

describe("ToolBox registrations", () => {
  it("lists shadowed registrations in add order and drops one exactly", () => {
    const box = new ToolBox();
    box.add(tool("read", "first"), { kind: "mcp", id: "fs" });
    box.add(tool("bash"), source);
    box.add(tool("read", "second"), { kind: "builtin", id: "files" });
    const all = box.registrations();
    expect(all.map((t) => `${t.name}:${t.source.kind}`)).toEqual(["read:mcp", "bash:app", "read:builtin"]);
    const [, , shadowed] = all;
    if (!shadowed) throw new Error("three registrations expected");
    box.drop(shadowed);
    expect(box.get("read")?.source.kind).toBe("mcp");
    expect(box.registrations()).toHaveLength(2);
  });
});
