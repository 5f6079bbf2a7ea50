import { describe, expect, it } from "vitest";
import { encodeJsonBody, keepJson, sharedWireList } from "./json-body.js";

describe("encodeJsonBody", () => {
  it("gives exactly the text JSON.stringify gives", () => {
    const bodies: Record<string, unknown>[] = [
      {},
      { model: "m", messages: [], stream: true },
      {
        model: "anthropic/claude-sonnet-4",
        messages: [
          { role: "system", content: "Be brief. \"Quoted\", \\ back\nslash, tab\t, é, 😀, \u2028" },
          { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "add", arguments: '{"a":2}' } }] },
          { role: "user", content: [{ type: "text", text: "Hi", cache_control: { type: "ephemeral" } }] },
        ],
        tools: [{ type: "function", function: { name: "add", description: "Adds.", parameters: { type: "object", properties: { a: { type: "number" } } } } }],
        max_tokens: 4096,
        temperature: 0.5,
        stream_options: { include_usage: true },
      },
      // What JSON.stringify leaves out or writes as null: undefined fields, functions, holes, undefined items.
      { a: undefined, b: () => 1, c: [undefined, () => 1, null, 1.5, "x"], d: { e: undefined, f: [undefined] }, "key \"quoted\"": 1 },
      { sparse: new Array(3).fill(1, 0, 1), nested: [[1, [2]], { x: [] }], n: null, zero: -0, big: 1e21 },
    ];
    for (const body of bodies) expect(encodeJsonBody(body)).toBe(JSON.stringify(body));
  });

  it("gives the same text with kept parts in the lists, and keeps their text for the next body", () => {
    const system = keepJson({ role: "system", content: "Be brief." });
    const tool = keepJson({ type: "function", function: { name: "add", parameters: { type: "object" } } });
    const body = { model: "m", messages: [system, { role: "user", content: "Hi" }], tools: [tool], stream: true };
    expect(encodeJsonBody(body)).toBe(JSON.stringify(body));
    // A kept part is declared unchanging: a change made anyway (against the contract) shows that its
    // first text is what the next body carries, while a part that was not kept is encoded afresh.
    (system as { content: string }).content = "changed";
    const user = body.messages[1] as { content: string };
    user.content = "Hello";
    expect(JSON.parse(encodeJsonBody(body)).messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Hello" },
    ]);
  });

  it("keeps nothing of a part that was not declared kept, even when it was encoded before", () => {
    const message = { role: "user", content: "One" };
    expect(encodeJsonBody({ messages: [message] })).toBe('{"messages":[{"role":"user","content":"One"}]}');
    message.content = "Two";
    expect(encodeJsonBody({ messages: [message] })).toBe('{"messages":[{"role":"user","content":"Two"}]}');
  });
});

describe("sharedWireList", () => {
  it("maps a frozen list once, into frozen items kept for encoding, and a plain list per call", () => {
    const mapped: string[] = [];
    const wire = sharedWireList((name: string) => {
      mapped.push(name);
      return { name };
    });
    const tools = Object.freeze(["add", "echo"]);
    const first = wire(tools);
    const second = wire(tools);
    expect(mapped).toEqual(["add", "echo"]);
    expect(second[0]).toBe(first[0]);
    expect(Object.isFrozen(second[0])).toBe(true);
    // Each call's own list: a request may add to it (an answer tool) or replace an item (a breakpoint).
    expect(second).not.toBe(first);
    second.push({ name: "answer" });
    expect(wire(tools)).toEqual([{ name: "add" }, { name: "echo" }]);
    expect(encodeJsonBody({ tools: wire(tools) })).toBe('{"tools":[{"name":"add"},{"name":"echo"}]}');
    // A list that is not frozen may change between calls: it is mapped every time.
    const open = ["add"];
    wire(open);
    wire(open);
    expect(mapped).toEqual(["add", "echo", "add", "add"]);
  });
});
