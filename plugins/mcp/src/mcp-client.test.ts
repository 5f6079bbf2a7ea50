import { describe, expect, it } from "vitest";
import { responseOf } from "./mcp-client.js";

describe("responseOf: the responses that go straight to their request", () => {
  it("takes a result or an error response in the SDK's strict envelope", () => {
    const result = { jsonrpc: "2.0" as const, id: 3, result: { content: [{ type: "text", text: "4" }], _meta: { note: 1 } } };
    const error = { jsonrpc: "2.0" as const, id: "a", error: { code: -32602, message: "bad", data: { why: 1 } } };
    expect(responseOf(result)).toBe(result);
    expect(responseOf(error)).toBe(error);
  });

  it("leaves to the SDK everything its schemas would not read as a response", () => {
    const cases: unknown[] = [
      { jsonrpc: "2.0", id: 1, method: "ping" },
      { jsonrpc: "2.0", method: "notifications/progress", params: {} },
      { jsonrpc: "1.0", id: 1, result: {} },
      { jsonrpc: "2.0", id: 1.5, result: {} },
      { jsonrpc: "2.0", id: null, result: {} },
      { jsonrpc: "2.0", result: {} },
      { jsonrpc: "2.0", id: 1, result: 5 },
      { jsonrpc: "2.0", id: 1, result: [] },
      { jsonrpc: "2.0", id: 1, result: { _meta: "x" } },
      { jsonrpc: "2.0", id: 1, result: {}, extra: true },
      { jsonrpc: "2.0", id: 1, error: { code: 1.5, message: "x" } },
      { jsonrpc: "2.0", id: 1, error: { code: 1 } },
      { jsonrpc: "2.0", error: { code: 1, message: "x" } },
      { jsonrpc: "2.0", id: 1, error: { code: 1, message: "x" }, result: {} },
    ];
    for (const message of cases) expect(responseOf(message as never), JSON.stringify(message)).toBeUndefined();
  });
});
