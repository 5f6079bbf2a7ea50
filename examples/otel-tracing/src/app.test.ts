import { describe, expect, it } from "vitest";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { scriptedModel } from "@weft/sdk/testing";
// @ts-expect-error: a plain-JS example, run as users run it
import { tracedTurn } from "./app.mjs";

describe("examples/otel-tracing", () => {
  it("traces one tool-using turn as invoke_agent with chat and execute_tool spans, and the MCP requests of its server", async () => {
    const exporter = new InMemorySpanExporter();
    const model = scriptedModel([{ toolCalls: [{ id: "c1", name: "clock__time", arguments: { zone: "Europe/Oslo" } }] }, "It is noon."], { contextWindow: 10_000 });
    expect(await tracedTurn({ model, exporter })).toBe("It is noon.");
    // In the order they ended. Left out: the cancellations the MCP SDK client sends at close for the
    // handshake's requests, long answered (it keeps their abort listeners on the start signal).
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names.filter((name) => name !== "notifications/cancelled")).toEqual([
      "server/discover", // the v2 client offers 2026-07-28 first; this 2025-era server refuses it
      "initialize",
      "notifications/initialized",
      "tools/list",
      "chat test-model",
      "tools/call time",
      "execute_tool clock__time",
      "chat test-model",
      "invoke_agent clock-agent",
    ]);
  });
});
