import { describe, expect, it } from "vitest";
import { anthropicWireProblems, chatCompletionsWireProblems, ollamaWireProblems } from "./wire-rules.js";

// The checkers the provider tests rely on must see each broken rule, or an empty list proves nothing.
describe("wire rules", () => {
  const use = { type: "tool_use", id: "toolu_1", name: "read", input: {} };
  const result = { type: "tool_result", tool_use_id: "toolu_1", content: "ok" };
  const text = (value: string) => ({ type: "text", text: value });

  it("accept a well-formed Anthropic body", () => {
    const body = {
      system: [text("Sys.")],
      messages: [
        { role: "user", content: [text("Hi")] },
        { role: "assistant", content: [text("Reading."), use] },
        { role: "user", content: [result, text("and then?")] },
      ],
    };
    expect(anthropicWireProblems(body)).toEqual([]);
  });

  it("name every broken Anthropic rule", () => {
    expect(
      anthropicWireProblems({
        messages: [
          { role: "assistant", content: [use] },
          { role: "system", content: [text("Sys.")] },
          { role: "user", content: [text("late"), result] },
          { role: "user", content: [text("")] },
        ],
      }),
    ).toEqual([
      "the first message is assistant, not user",
      "messages[0]: tool_use toolu_1 is not answered in the next message",
      "messages[1] has role system",
      "messages[2]: tool_result toolu_1 answers no tool_use of the message before",
      "messages[2]: a tool_result comes after another block",
      "messages[3] repeats the role user",
      "messages[3] has an empty text block",
    ]);
  });

  it("name orphan, unanswered and twice-answered Chat Completions tool messages", () => {
    const call = (id: string) => ({ id, type: "function", function: { name: "read", arguments: "{}" } });
    expect(
      chatCompletionsWireProblems({
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: null, tool_calls: [call("a"), call("b")] },
          { role: "tool", tool_call_id: "a", content: "1" },
          { role: "user", content: "between" },
          { role: "tool", tool_call_id: "b", content: "2" },
          { role: "system", content: "late" },
          { role: "assistant", content: null, tool_calls: [{ id: "c", type: "function", function: { name: "read", arguments: "[]" } }] },
          { role: "tool", tool_call_id: "c", content: "3" },
          { role: "tool", tool_call_id: "c", content: "3 again" },
        ],
      }),
    ).toEqual([
      "messages[1]: tool call b has no tool message after it",
      "messages[4]: orphan tool message b",
      "messages[5]: a system message after the first",
      "messages[6]: tool call c has no JSON object arguments string",
      "messages[8]: c answered twice",
    ]);
  });

  it("pair Ollama tool messages with calls by order and name", () => {
    const call = (name: string, id?: string) => ({ ...(id ? { id } : {}), function: { name, arguments: {} } });
    expect(
      ollamaWireProblems({
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "", tool_calls: [call("read"), call("list", "x")] },
          { role: "tool", tool_name: "list", content: "1" },
          { role: "tool", tool_name: "list", tool_call_id: "y", content: "2" },
          { role: "assistant", content: "", tool_calls: [call("read")] },
          { role: "user", content: "no result" },
          { role: "tool", tool_name: "read", content: "late" },
        ],
      }),
    ).toEqual([
      "messages[1]: tool message 0 is for list, the call is read",
      "messages[1]: tool message 1 answers y, the call is x",
      "messages[4]: 1 tool calls, 0 tool messages after them",
      "messages[6]: tool message with no calling assistant message before it",
    ]);
  });
});
