import { describe, expect, it } from "vitest";
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { scriptedModel } from "@weft/sdk/testing";
// @ts-expect-error: a plain-JS example, run as users run it
import { tracedTurn } from "./app.mjs";

describe("examples/otel-tracing", () => {
  it("traces one tool-using turn as invoke_agent with chat and execute_tool spans", async () => {
    const exporter = new InMemorySpanExporter();
    const model = scriptedModel([{ toolCalls: [{ id: "c1", name: "clock", arguments: { zone: "Europe/Oslo" } }] }, "It is noon."], { contextWindow: 10_000 });
    expect(await tracedTurn({ model, exporter })).toBe("It is noon.");
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(["chat test-model", "execute_tool clock", "chat test-model", "invoke_agent clock-agent"]);
  });
});
