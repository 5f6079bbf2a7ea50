import { PassThrough, Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Suspension } from "@weft/sdk";
import { terminalWaitFor } from "./ask-user.js";
import { LineReader } from "./line-reader.js";

describe("terminalWaitFor", () => {
  it("asks a server's form field by field and reads a field of an unexpected shape as plain text", async () => {
    const shown: string[] = [];
    const lines = new LineReader(Readable.from(["3\n", "Ada\n", "yes\n"]), new PassThrough(), false);
    const waitFor = terminalWaitFor(lines, (text) => void shown.push(text));
    const suspension: Suspension = {
      kind: "elicitation",
      callId: "c1",
      toolName: "book",
      message: "A few details",
      // As a server may send it: a type that is not a string, a field that is not an object.
      schema: { type: "object", properties: { seats: { type: "integer", title: "How many" }, name: { type: 7, description: 9 }, vip: true } },
    };
    const prompts: string[] = [];
    const ask = lines.ask.bind(lines);
    lines.ask = (prompt, signal) => {
      prompts.push(prompt);
      return ask(prompt, signal);
    };
    expect(await waitFor(suspension, new AbortController().signal)).toEqual({ action: "accept", content: { seats: 3, name: "Ada", vip: "yes" } });
    expect(prompts).toEqual(["seats (How many): ", "name: ", "vip: "]);
    expect(shown).toEqual(["\nbook asks: A few details\n"]);
  });
});
